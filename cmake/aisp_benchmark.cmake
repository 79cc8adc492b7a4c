# What every plugin is compiled with and linked against besides CMake's own flags. `--bench-root` plugins,
# compiled at run time, get the same through a generated header (cmake/aisp_plugin_flags.cmake).
set(AISP_PLUGIN_CUDA_OPTIONS --expt-relaxed-constexpr -lineinfo)
set(AISP_PLUGIN_CUDA_LIBS cudart cublas cublasLt)
include(${CMAKE_CURRENT_LIST_DIR}/aisp_plugin_flags.cmake)
aisp_write_plugin_flags_header()

# aisp_add_benchmark(<file.cu> [SUBDIR <dir>] [LIBS <libs...>])
# Builds one dlopen-able plugin per .cu file: build/plugins/<dir>/<stem>.so, where <dir> defaults to the
# source folder relative to the project root (chapters/ch07 -> ch07, labs/x -> labs/x), so discovery can
# apply the seed's naming rules to the plugin tree.
function(aisp_add_benchmark file)
  cmake_parse_arguments(ARG "" "SUBDIR" "LIBS" ${ARGN})
  get_filename_component(abs ${file} ABSOLUTE)
  get_filename_component(stem ${file} NAME_WE)
  if(NOT ARG_SUBDIR)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    string(REGEX REPLACE "^chapters/" "" rel "${rel}")
    set(ARG_SUBDIR ${rel})
  endif()
  string(MAKE_C_IDENTIFIER "plugin_${ARG_SUBDIR}_${stem}" target)
  add_library(${target} MODULE ${abs})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
  list(TRANSFORM AISP_PLUGIN_CUDA_LIBS PREPEND CUDA:: OUTPUT_VARIABLE cuda_libs)
  target_link_libraries(${target} PRIVATE ${cuda_libs} ${ARG_LIBS})
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${AISP_PLUGIN_CUDA_OPTIONS}>")
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME ${stem}
    LIBRARY_OUTPUT_DIRECTORY ${AISP_PLUGIN_DIR}/${ARG_SUBDIR}
    CUDA_SEPARABLE_COMPILATION OFF)
  set_property(GLOBAL APPEND PROPERTY AISP_PLUGINS ${target})
endfunction()

# Every baseline_*.cu / optimized_*.cu in the calling folder becomes a plugin.
function(aisp_add_benchmarks_in_dir)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/baseline_*.cu ${CMAKE_CURRENT_SOURCE_DIR}/optimized_*.cu)
  foreach(src ${sources})
    aisp_add_benchmark(${src} ${ARGN})
  endforeach()
endfunction()
