// Artifact files: written atomically (temp + fsync + rename) so a killed run never leaves a half-written
// JSON behind and a resumed run can trust whatever file it finds.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aisp {

// Writes `<path>.tmp.<pid>`, fsyncs it, renames it over `path`. Creates missing parent directories.
// Throws std::runtime_error naming the path and the OS error.
void write_file_atomic(const std::filesystem::path& path, std::string_view contents);

// Whole file as bytes; throws std::runtime_error naming the path and the OS error.
std::string read_file(const std::filesystem::path& path);

// JSON conveniences over the two above; read_json's parse errors name the file.
void write_json_atomic(const std::filesystem::path& path, const nlohmann::json& j, int indent = 2);
nlohmann::json read_json(const std::filesystem::path& path);

}  // namespace aisp
