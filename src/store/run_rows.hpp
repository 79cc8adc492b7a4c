// Reading `runs` rows into RunInfo (internal to src/store): the one column list, used by list_runs,
// history and ingest's answer, so a run reads the same wherever it comes from.
#pragma once
#include <cstdint>
#include <optional>

#include "store/store.hpp"

namespace aisp {

namespace sql {
class Db;
}

// The run with this id, as list_runs() would list it; nullopt when there is none.
std::optional<RunInfo> run_row(sql::Db& db, int64_t id);

}  // namespace aisp
