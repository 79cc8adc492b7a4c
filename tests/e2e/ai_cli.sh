#!/usr/bin/env bash
# `aisp ai explain|ask|suggest` on the committed H100 reference runs: answers cite the stored run they
# used, `explain ch07:transpose` gives the verdict, CI and % of the bandwidth roof and says no profile is
# stored; with the recorded H100 ncu CSVs (tests/data/profile/transpose) it cites the counters, and with no
# store at all the shipped reference dataset's H200 profile gives them. The
# --endpoint path runs against a local fake chat-completions server (python3 http.server): the facts
# reach it, its prose comes back, and the API key never appears in aisp's output, errors or JSON.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
ref="$root/results/reference/h100_80gb_hbm3"
make_tmp
server_pid=""
on_exit() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; }
db="$tmp/ref.db"
# The finished runs only (an interrupted run directory would be refused by ingest).
runs=()
for d in "$ref"/2026*; do
  state=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("state",""))' "$d/progress/run_progress.json" 2>/dev/null)
  [ "$state" = running ] || runs+=("$d")
done
expect_code 0 "$aisp" bench ingest "${runs[@]}" --db "$db"
run_id=$(python3 - "$db" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT id FROM runs WHERE run_key LIKE '20261125_005247%'").fetchone()[0])
PY
)

# explain without profiles: verdict + CI + roofline, cites the run, names the missing counters.
expect_code 0 "$aisp" ai explain ch07:transpose --db "$db" --hardware h100_80gb_hbm3 --run "$run_id"
grep -q "ch07:transpose transpose: 6.22x faster than the baseline, 95% CI \[5.58, 6.94\].*\[run $run_id\]" <<<"$out" || fail "explain verdict: $out"
grep -q "14.1% -> 88.0% of the 3249 GB/s bandwidth roof" <<<"$out" || fail "explain roofline: $out"
grep -q "both move 536.9 MB per run" <<<"$out" || fail "explain bytes: $out"
grep -q "no ncu profile stored for ch07:transpose" <<<"$out" || fail "explain missing profile: $out"
grep -q "\[run $run_id\] stored run $run_id (20261125_005247__bench__targets-all" <<<"$out" || fail "explain citation: $out"

# explain with the recorded H100 counters.
expect_code 0 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --profiles "$root/tests/data/profile/transpose"
grep -q "store sectors/request 32.0 -> 4.0" <<<"$out" || fail "explain counters: $out"
grep -q "DRAM throughput 14.4% -> 82.9% of peak" <<<"$out" || fail "explain DRAM: $out"
grep -q "UNCOALESCED ACCESS" <<<"$out" || fail "explain bottleneck: $out"
grep -q "no ncu profile stored" <<<"$out" && fail "profiles given but reported missing: $out"

# --json: the schema, every fact cites a listed source.
expect_code 0 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --json
python3 - "$out" <<'PY' || fail "explain --json"
import json, sys
a = json.loads(sys.argv[1])
assert a["schema"] == "aisp.ai_answer/1" and a["command"] == "explain"
ids = {c["id"] for c in a["citations"]}
for f in a["facts"]:
    for c in f["cite"].split(", "):
        assert c in ids, (c, ids)
v = [f for f in a["facts"] if f["topic"] == "verdict"][0]
assert v["values"]["verdict"] == "FASTER" and 5.5 < v["values"]["ci_low"] < 5.7, v
assert a["prose"] is None
PY

# suggest: ranked from the roofline, already-applied fixes listed as done.
expect_code 0 "$aisp" ai suggest ch07:lookup --db "$db" --run "$run_id"
grep -q "Memory bound" <<<"$out" || fail "suggest lookup: $out"
grep -q "done: tiling / data reuse through shared memory (already applied in lookup" <<<"$out" || fail "suggest applied: $out"
expect_code 0 "$aisp" ai suggest --db "$db" --run "$run_id" --top 3 --json
python3 -c 'import json,sys; a=json.loads(sys.argv[1]); assert len(a["suggestions"]) == 3; s=[x["score"] for x in a["suggestions"]]; assert s == sorted(s, reverse=True), s' "$out" \
  || fail "suggest --top 3: $out"

# ask: targets and topics from the question.
expect_code 0 "$aisp" ai ask "why is ch07:copy_scalar faster?" --db "$db" --run "$run_id"
grep -q "ch07:copy_scalar copy_scalar: 1.20x faster" <<<"$out" || fail "ask: $out"
grep -q "ch07:transpose" <<<"$out" && fail "ask selected another target: $out"
expect_code 0 "$aisp" ai ask "which pair is the fastest?" --db "$db" --run "$run_id"
grep -q "#1 by the CI's low end" <<<"$out" || fail "ask rank: $out"

# With no store at all: the shipped reference dataset, whose H200 ncu profile of ch07:transpose
# (results/reference/h200/profiles/, device call of 2026-11-28) gives the counters behind the speedup.
(cd "$tmp" && XDG_CACHE_HOME="$tmp/cache" "$aisp" ai explain ch07:transpose) >"$tmp/ref_explain.txt" 2>&1 \
  || fail "explain on the reference dataset: $(cat "$tmp/ref_explain.txt")"
out=$(cat "$tmp/ref_explain.txt")
grep -q "shipped reference dataset" <<<"$out" || fail "reference explain label: $out"
grep -q "why (counters): DRAM throughput 11.8% -> 72.8% of peak" <<<"$out" || fail "reference explain counters: $out"
grep -q "stored ncu profile .*ch07:transpose, transpose" <<<"$out" || fail "reference explain profile citation: $out"

# Errors: unknown target (nearest names), missing store.
expect_code 2 "$aisp" ai explain ch07:transpos --db "$db"
grep -q "nearest: .*ch07:transpose" <<<"$out" || fail "unknown target: $out"
expect_code 2 "$aisp" ai explain ch07:transpose --db "$tmp/none.db"

# --endpoint against a fake OpenAI-compatible server: records the request, answers with fixed prose.
cat > "$tmp/fake_llm.py" <<'PY'
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(sys.argv[2], "w") as f:
            json.dump({"path": self.path, "auth": self.headers.get("Authorization"), "body": json.loads(body)}, f)
        if self.headers.get("Authorization") != "Bearer " + sys.argv[3]:
            self.send_response(401); self.end_headers()
            self.wfile.write(b'{"error": "bad key, got ' + (self.headers.get("Authorization") or "").encode() + b'"}'); return
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": "PROSE: tiles made the stores coalesced [run 8]."}}]}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()
PY
key="sk-aisp-e2e-secret-$$-0123456789"
python3 "$tmp/fake_llm.py" "$tmp/port" "$tmp/request.json" "$key" &
server_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
export AISP_E2E_LLM_KEY="$key"
expect_code 0 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --endpoint "http://127.0.0.1:$port/v1" \
  --api-key-env AISP_E2E_LLM_KEY --model fake-model
grep -q "PROSE: tiles made the stores coalesced" <<<"$out" || fail "prose missing: $out"
grep -q "6.22x faster" <<<"$out" || fail "facts no longer printed beside the prose: $out"
grep -q "$key" <<<"$out" && fail "key in output"
python3 - "$tmp/request.json" "$key" <<'PY' || fail "request the fake server got"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["path"] == "/v1/chat/completions", r["path"]
assert r["auth"] == "Bearer " + sys.argv[2]
b = r["body"]
assert b["model"] == "fake-model" and b["messages"][0]["role"] == "system"
assert "6.22x faster" in b["messages"][1]["content"] and sys.argv[2] not in json.dumps(b["messages"])
PY
expect_code 0 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --endpoint "http://127.0.0.1:$port/v1" \
  --api-key-env AISP_E2E_LLM_KEY --json
python3 -c 'import json,sys; a=json.loads(sys.argv[1]); assert a["prose"].startswith("PROSE:") and a["facts"]' "$out" || fail "prose in JSON: $out"
grep -q "$key" <<<"$out" && fail "key in JSON"
# A wrong key: the server echoes what it got in its error body; aisp's error must not show the key.
export AISP_E2E_LLM_KEY="${key}-wrong"
expect_code 1 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --endpoint "http://127.0.0.1:$port/v1" \
  --api-key-env AISP_E2E_LLM_KEY
grep -q "HTTP 401" <<<"$out" || fail "endpoint failure not reported: $out"
grep -q "$key" <<<"$out" && fail "key in an error: $out"
grep -q "6.22x faster" <<<"$out" || fail "grounded answer not printed on endpoint failure: $out"
expect_code 1 "$aisp" ai explain ch07:transpose --db "$db" --run "$run_id" --endpoint "http://127.0.0.1:$port/v1" \
  --api-key-env AISP_E2E_UNSET_VARIABLE
grep -q "AISP_E2E_UNSET_VARIABLE: the variable is not set" <<<"$out" || fail "unset key variable: $out"
echo "ai_cli: ok"
