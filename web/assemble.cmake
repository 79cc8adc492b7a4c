# cmake -P step of web/CMakeLists.txt: copies public/ to OUT and, when `npm ci` succeeded, the chart
# library beside it. Without the library the UI still works (tables; each chart says it is missing).
file(REMOVE_RECURSE ${OUT})
file(COPY ${SRC}/public/ DESTINATION ${OUT})
file(MAKE_DIRECTORY ${OUT}/vendor)
set(dist ${NPM}/node_modules/uplot)
if(EXISTS ${dist}/dist/uPlot.iife.min.js)
  file(COPY ${dist}/dist/uPlot.iife.min.js ${dist}/dist/uPlot.min.css ${dist}/LICENSE DESTINATION ${OUT}/vendor)
else()
  message(WARNING "uPlot is not installed in ${NPM}: the dashboard is assembled without its charts")
endif()
file(TOUCH ${STAMP})
