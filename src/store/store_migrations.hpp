// Schema migrations that need more than one SQL script (internal to src/store). Each runs inside the
// transaction Store::open holds, with foreign keys off (tables are rebuilt), and throws to roll it back.
#pragma once

namespace aisp::sql {
class Db;
}

namespace aisp {

// v3 -> v4: each run kept once (docs/result-schema.md, "Results store").
void migrate_v3_to_v4(sql::Db& db);

}  // namespace aisp
