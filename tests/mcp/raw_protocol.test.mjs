// The wire protocol below what the SDK client exercises: version negotiation for every supported
// revision, what 2025-03-26 lacks (structured output) and alone has (batches), stdout carrying nothing
// but JSON-RPC, and a clean exit on end-of-file and on SIGTERM with work in flight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, initialized, rawSession } from './mcp_process.mjs';

function assertOnlyProtocol(r) {
  for (const line of r.raw) {
    const m = JSON.parse(line);  // throws on any non-JSON stdout line
    const all = Array.isArray(m) ? m : [m];
    for (const x of all) assert.equal(x.jsonrpc, '2.0', line);
  }
  assert.match(r.stderr, /\[aisp mcp\]/, 'logs go to stderr');
}

test('initialize echoes each supported version and answers others with the latest', async () => {
  for (const [asked, got] of [['2025-11-25', '2025-11-25'], ['2025-06-18', '2025-06-18'], ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'], ['1999-01-01', '2025-11-25']]) {
    const r = await rawSession([init('v', asked)], { expect: 1 });
    assertOnlyProtocol(r);
    assert.equal(r.code, 0);
    assert.equal(r.messages[0].id, 'v');
    assert.equal(r.messages[0].result.protocolVersion, got, asked);
    assert.equal(r.messages[0].result.serverInfo.name, 'aisp');
  }
});

test('2025-03-26: no outputSchema or structuredContent; batches answered as one array', async () => {
  const r = await rawSession([init(1, '2025-03-26'), initialized,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'aisp_job_list', arguments: {} } },
    [{ jsonrpc: '2.0', id: 4, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/x' },
      { jsonrpc: '2.0', id: 5, method: 'nope' }]], { expect: 4 });
  assertOnlyProtocol(r);
  const byId = new Map(r.messages.filter((m) => !Array.isArray(m)).map((m) => [m.id, m]));
  assert.ok(byId.get(2).result.tools.every((t) => t.outputSchema === undefined && t.title === undefined));
  assert.equal(byId.get(3).result.structuredContent, undefined);
  assert.deepEqual(JSON.parse(byId.get(3).result.content[0].text), { jobs: [] });
  const batch = r.messages.find((m) => Array.isArray(m));
  assert.ok(batch, 'one batch reply');
  assert.deepEqual(batch.map((m) => m.id).sort(), [4, 5]);
  assert.equal(batch.find((m) => m.id === 5).error.code, -32601);
});

test('2025-11-25: a batch is an invalid request; ids keep their JSON type', async () => {
  const r = await rawSession([init('s'), initialized, [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    { jsonrpc: '2.0', id: '7', method: 'ping' }, { jsonrpc: '2.0', id: 7, method: 'ping' },
    { jsonrpc: '2.0', id: 0, method: 'ping' }], { expect: 5 });
  assertOnlyProtocol(r);
  const err = r.messages.find((m) => m.id === null);
  assert.equal(err.error.code, -32600);
  assert.match(err.error.message, /batches/);
  assert.ok(r.raw.some((l) => l.includes('"id":"7"')) && r.raw.some((l) => l.includes('"id":7')));
  assert.ok(r.messages.some((m) => m.id === 0 && m.result));
});

test('end-of-file with a call in flight: no response for it, exit 0 at once', async () => {
  const r = await rawSession([init(1), initialized,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'aisp_triage', arguments: {} } }], { expect: 1 });
  assertOnlyProtocol(r);
  assert.equal(r.code, 0);
  assert.ok(!r.messages.some((m) => m.id === 2), 'a cancelled call is not answered');
  assert.ok(r.exitMs < 2000, `exit took ${r.exitMs} ms (clients send SIGTERM after 2 s)`);
});

test('SIGTERM ends the session cleanly', async () => {
  let child;
  const pending = rawSession([init(1), initialized], { expect: 1, closeStdin: false, onSpawn: (c) => { child = c; } });
  await new Promise((res) => setTimeout(res, 500));
  child.kill('SIGTERM');
  const r = await pending;
  assertOnlyProtocol(r);
  assert.equal(r.code, 0);
  assert.match(r.stderr, /received SIGTERM/);
});
