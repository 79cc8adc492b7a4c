// 1,000 malformed or hostile lines against one `aisp mcp` process: non-JSON, wrong types, huge and
// ill-typed ids, deep nesting, oversized lines, invalid UTF-8, unknown methods, calls before initialize,
// bad tools/call shapes and arguments. Each line's expected answer is known in advance; the test checks
// that every one comes (and nothing else), that stdout carries only JSON-RPC, and that the server is
// still alive at the end and exits 0 on end-of-file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawSession } from './mcp_process.mjs';

// Deterministic pseudo-random numbers (mulberry32), so a failure reproduces.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PARSE = -32700;
const INVALID = -32600;
const NO_METHOD = -32601;
const BAD_PARAMS = -32602;

// Each case: the line, and what must come back: {id, code} (an error to that id; id null allowed),
// {id, result: 'ok' | 'isError' | 'any'}, {rawId} for ids JSON.parse cannot hold exactly, or none.
function buildCases() {
  const rand = rng(20261125);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const cases = [];
  let n = 0;
  const id = () => `m${n++}`;
  const req = (i, method, params) => (params === undefined ? { jsonrpc: '2.0', id: i, method } : { jsonrpc: '2.0', id: i, method, params });
  const garbage = () => 'x' + Array.from({ length: 1 + Math.floor(rand() * 60) }, () => String.fromCharCode(32 + Math.floor(rand() * 95))).join('');

  // Before initialize: only ping and unknown-method answers are normal; tools/* are refused.
  const before = [
    () => { const i = id(); return { line: req(i, 'tools/list'), expect: { id: i, code: INVALID } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_status' }), expect: { id: i, code: INVALID } }; },
    () => { const i = id(); return { line: req(i, 'ping'), expect: { id: i, result: 'ok' } }; },
    () => { const i = id(); return { line: req(i, 'server/discover'), expect: { id: i, code: NO_METHOD } }; },
    () => ({ line: garbage(), expect: { id: null, code: PARSE } }),
    () => ({ line: { jsonrpc: '2.0', method: 'notifications/initialized' }, expect: null }),
    () => { const i = id(); return { line: req(i, 'initialize', { capabilities: {} }), expect: { id: i, code: BAD_PARAMS } }; },
  ];
  for (let k = 0; k < 140; k += 1) cases.push(before[k % before.length]());
  cases.push({ line: req('init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } }), expect: { id: 'init', result: 'ok' } });
  cases.push({ line: { jsonrpc: '2.0', method: 'notifications/initialized' }, expect: null });

  const deep = (depth) => '['.repeat(depth) + ']'.repeat(depth);
  const after = [
    // Not JSON at all, or cut short.
    () => ({ line: garbage(), expect: { id: null, code: PARSE } }),
    () => { const full = JSON.stringify(req(id(), 'ping')); return { line: full.slice(0, 2 + Math.floor(rand() * (full.length - 3))), expect: { id: null, code: PARSE } }; },
    () => ({ line: `${JSON.stringify(req('t', 'ping'))} trailing`, expect: { id: null, code: PARSE } }),
    () => ({ line: '{"jsonrpc":"2.0","id":"c","method":"pi\u0001ng"}', expect: { id: null, code: PARSE } }),  // raw control char
    () => ({ line: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), expect: { id: null, code: PARSE } }),  // invalid UTF-8
    // JSON, but not a request.
    () => ({ line: pick(['42', '"ping"', 'true', 'null', '-0.5e3']), expect: { id: null, code: INVALID } }),
    () => ({ line: pick(['[]', '[1,2,3]', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]']), expect: { id: null, code: INVALID } }),  // no batches in 2025-11-25
    () => { const i = id(); return { line: { jsonrpc: pick(['1.0', 2, null, '2.00']), id: i, method: 'ping' }, expect: { id: i, code: INVALID } }; },
    () => { const i = id(); return { line: { id: i, method: 'ping' }, expect: { id: i, code: INVALID } }; },
    () => ({ line: { jsonrpc: '2.0', id: pick([null, 1.5, {}, [], true, { nested: [1] }]), method: 'ping' }, expect: { id: null, code: INVALID } }),
    () => { const i = id(); return { line: { jsonrpc: '2.0', id: i, method: pick([42, {}, [], null, true]) }, expect: { id: i, code: INVALID } }; },
    () => { const i = id(); return { line: { jsonrpc: '2.0', id: i }, expect: { id: i, code: INVALID } }; },
    () => { const i = id(); return { line: req(i, 'ping', pick(['x', 5, true])), expect: { id: i, code: INVALID } }; },
    // Huge ids: exact integers are echoed exactly; others are refused.
    () => ({ line: '{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}', expect: { rawId: '18446744073709551615' } }),
    () => ({ line: '{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}', expect: { rawId: '-9223372036854775808' } }),
    () => ({ line: '{"jsonrpc":"2.0","id":100000000000000000000000000000,"method":"ping"}', expect: { id: null, code: INVALID } }),
    () => ({ line: req('z'.repeat(2000 + Math.floor(rand() * 20000)), 'ping'), expect: { id: null, code: INVALID } }),
    // Nesting: refused before parsing when absurd, ignored when merely odd.
    () => ({ line: `{"jsonrpc":"2.0","id":"d","method":"ping","params":{"a":${deep(1000 + Math.floor(rand() * 50000))}}}`, expect: { id: null, code: INVALID } }),
    () => { const i = id(); return { line: `{"jsonrpc":"2.0","id":"${i}","method":"ping","params":{"a":${deep(20)}}}`, expect: { id: i, result: 'ok' } }; },
    // Unknown methods, some with hostile names.
    () => { const i = id(); return { line: req(i, pick(['resources/list', 'prompts/get', 'logging/setLevel', 'tools/run', '../../etc/passwd', 'ping ', '\u202etools/list', 'x'.repeat(5000), '\u0000\u001b[31m', 'méthode/π'])), expect: { id: i, code: NO_METHOD } }; },
    () => { const i = id(); return { line: req(i, 'initialize', { protocolVersion: '2025-11-25' }), expect: { id: i, code: INVALID } }; },  // twice
    // tools/list and tools/call with bad shapes.
    () => { const i = id(); return { line: req(i, 'tools/list', pick([[], [1]])), expect: { id: i, code: BAD_PARAMS } }; },
    () => { const i = id(); return { line: req(i, 'tools/list', { cursor: pick(['', 'abc', '999999.ffff', 12, {}]) }), expect: { id: i, code: BAD_PARAMS } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', pick([undefined, {}, { name: 5 }, { name: null }, { arguments: {} }])), expect: { id: i, code: BAD_PARAMS } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: pick(['aisp_nope', 'AISP_STATUS', 'aisp_status ', 'y'.repeat(10000), '']) }), expect: { id: i, code: BAD_PARAMS } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_status', arguments: pick([[], 'x', 1, true]) }), expect: { id: i, code: BAD_PARAMS } }; },
    // Real tools with wrong arguments: tool results with isError.
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_benchmark_history', arguments: pick([{}, { target: 123 }, { target: 'x', bogus: 1 }, { target: 'y'.repeat(300) }]) }), expect: { id: i, result: 'isError' } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_job_status', arguments: pick([{ job_id: ['x'] }, { job_id: 'job-0-0' }, {}]) }), expect: { id: i, result: 'isError' } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_run_benchmarks', arguments: pick([{ targets: ['--help'] }, { targets: 'all' }, { targets: [] }, { targets: ['ch07'], iterations: -1 }]) }), expect: { id: i, result: 'isError' } }; },
    () => { const i = id(); return { line: req(i, 'tools/call', { name: 'aisp_job_list', arguments: {} }), expect: { id: i, result: 'any' } }; },
    // Nothing comes back for notifications and for responses the client sends.
    () => ({ line: { jsonrpc: '2.0', method: pick(['notifications/whatever', 'notifications/cancelled', 'tools/call']), params: pick([undefined, { requestId: 'm1' }, { requestId: [1] }, [1]]) }, expect: null }),
    // A notification whose params are not structured is not a valid message: answered with id null.
    () => ({ line: { jsonrpc: '2.0', method: 'notifications/cancelled', params: pick(['x', 3, false]) }, expect: { id: null, code: INVALID } }),
    () => ({ line: { jsonrpc: '2.0', id: 'resp', result: {} }, expect: null }),
    () => ({ line: { jsonrpc: '2.0', id: 'resp', error: { code: 1, message: 'x' } }, expect: null }),
    () => ({ line: pick(['', '   ', '\t', '\r']), expect: null }),
    // CRLF line endings are fine.
    () => { const i = id(); return { line: `${JSON.stringify(req(i, 'ping'))}\r`, expect: { id: i, result: 'ok' } }; },
  ];
  // Two lines over the 4 MiB limit, dropped by the reader without being held.
  const huge = () => ({ line: `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"${'a'.repeat(5 << 20)}"}}`, expect: { id: null, code: INVALID } });
  while (cases.length < 998) cases.push(after[Math.floor(rand() * after.length)]());
  cases.splice(500, 0, huge());
  cases.splice(800, 0, huge());
  return cases;
}

test('1,000 malformed or hostile lines: the right answer to each, nothing else, no crash', async () => {
  const cases = buildCases();
  assert.equal(cases.length, 1000);
  const expected = cases.filter((c) => c.expect);
  // Include a final ping so the run ends only after everything before it was read.
  const lines = [...cases.map((c) => c.line), { jsonrpc: '2.0', id: 'last', method: 'ping' }];
  const r = await rawSession(lines, { expect: expected.length + 1, timeoutMs: 120000, env: { AISP_MCP_REDACT: '' } });

  // stdout: only JSON-RPC responses, one per line.
  for (const line of r.raw) {
    const m = JSON.parse(line);
    assert.equal(m.jsonrpc, '2.0');
    assert.ok('result' in m !== 'error' in m, line.slice(0, 200));
    assert.ok(!('method' in m), 'no requests or notifications from the server here');
  }
  assert.equal(r.code, 0, `exit code ${r.code} signal ${r.signal}\n${r.stderr.slice(-2000)}`);

  const byId = new Map();
  const nullErrors = [];
  for (const [k, m] of r.messages.entries()) {
    if (m.id === null) nullErrors.push(m.error.code);
    else {
      assert.ok(!byId.has(m.id) || typeof m.id !== 'string', `duplicate response for ${m.id}`);
      byId.set(m.id, { m, raw: r.raw[k] });
    }
  }
  assert.ok(byId.has('last'), 'still answering at the end');
  const wantNull = [];
  for (const c of expected) {
    const e = c.expect;
    if (e.rawId) {
      assert.ok(r.raw.some((l) => l.includes(`"id":${e.rawId}`) && l.includes('"result"')), `id ${e.rawId} echoed exactly`);
      continue;
    }
    if (e.id === null) {
      wantNull.push(e.code);
      continue;
    }
    const got = byId.get(e.id);
    assert.ok(got, `no response to ${String(e.id).slice(0, 40)}: ${JSON.stringify(c.line).slice(0, 200)}`);
    const what = `${JSON.stringify(c.line).slice(0, 200)} -> ${got.raw.slice(0, 300)}`;
    if (e.code) assert.equal(got.m.error?.code, e.code, what);
    else if (e.result === 'ok') assert.ok(got.m.result && !got.m.result.isError, what);
    else if (e.result === 'isError') assert.equal(got.m.result?.isError, true, what);
    else assert.ok(got.m.result, what);
    byId.delete(e.id);
  }
  byId.delete('last');
  for (const k of [...byId.keys()]) if (typeof k === 'number' || typeof k === 'bigint') byId.delete(k);  // the rawId cases
  assert.deepEqual([...byId.keys()], [], 'no unexpected responses');
  assert.deepEqual(nullErrors.sort(), wantNull.sort(), 'errors that could not name a request');
  assert.equal(r.raw.length, expected.length + 1, 'one response per answerable line');
  assert.doesNotMatch(r.stderr, /terminate called|Segmentation|Aborted|AddressSanitizer/);
});
