// Every tool, called through the official SDK client with every boolean argument set to `true`, and the
// files the server leaves behind: nothing may appear outside its artifacts directory (not in the client's
// working directory, not next to it), a job's temporary files (the disk probe's test file) are gone once
// the job is cancelled or the client goes away, and flags are JSON booleans (`{"quick": "banana"}` is
// refused, not passed on as `--quick=banana`).
//
// Jobs started here are cancelled at once: on a machine with a GPU this costs seconds, not a benchmark run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AISP, SOURCE_DIR } from './mcp_process.mjs';

let root;       // everything of this test: the client's cwd, the artifacts directory
let artifacts;  // the server's --artifacts-dir (its store is inside)
let cwd;        // where the client starts the server
let client;
let transport;
const tools = new Map();

// Every file and directory under `dir` (relative), except under `skip`.
function listTree(dir, skip) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (skip && (p === skip || p.startsWith(skip + path.sep))) continue;
      out.push(path.relative(dir, p) + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

function diskProbeFiles(dir) {
  return listTree(dir).filter((p) => path.basename(p).startsWith('.aisp_disk_probe_'));
}

async function connect() {
  const t = new StdioClientTransport({
    command: AISP,
    args: ['mcp', '--artifacts-dir', artifacts],
    env: { ...process.env, AISP_SOURCE_DIR: SOURCE_DIR },
    stderr: 'pipe',
    cwd,
  });
  t.stderr?.on('data', () => {});
  const c = new Client({ name: 'aisp-flags-files', version: '1.0.0' });
  await c.connect(t);
  return { c, t };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitJob(c, jobId, states, ms = 60000) {
  const t0 = Date.now();
  for (;;) {
    const r = await c.callTool({ name: 'aisp_job_status', arguments: { job_id: jobId } });
    const s = r.structuredContent;
    if (states.includes(s.state) || Date.now() - t0 > ms) return s;
    await sleep(100);
  }
}

// A value that satisfies a property's schema, for required properties and numbers.
function sample(name, schema) {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'boolean': return true;
    case 'integer': return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'number': return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'array': return [sample(name, schema.items)];
    default:
      if (/target/.test(name)) return 'ch07:copy_scalar';
      if (name === 'job_id') return 'job-0000-0';
      return 'x';
  }
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'aisp-mcp-files-'));
  artifacts = path.join(root, 'artifacts');
  cwd = path.join(root, 'client-cwd');
  fs.mkdirSync(cwd);
  // The server's store, inside its artifacts directory: the H100 reference runs.
  const ref = path.join(SOURCE_DIR, 'results', 'reference', 'h100_80gb_hbm3');
  const runs = fs.readdirSync(ref).filter((d) => d.includes('__bench__')).map((d) => path.join(ref, d)).sort();
  execFileSync(AISP, ['bench', 'ingest', '--db', path.join(artifacts, 'aisp.db'), ...runs], { stdio: ['ignore', 'ignore', 'pipe'] });
  ({ c: client, t: transport } = await connect());
  for (const t of (await client.listTools()).tools) tools.set(t.name, t);
});

after(async () => {
  await client?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('no tool lets a client choose a path, and flags are booleans', () => {
  const pathOptions = ['dir', 'artifacts_dir', 'db', 'caps', 'out', 'output', 'data', 'from', 'tags', 'prices'];
  const flags = ['quick', 'no_caps', 'no_lib', 'no_micro', 'fresh', 'no_db', 'reproducible', 'accept_regressions'];
  let flagsSeen = 0;
  for (const [name, t] of tools) {
    const props = t.inputSchema.properties ?? {};
    for (const p of pathOptions) assert.equal(props[p], undefined, `${name} exposes ${p}`);
    for (const f of flags) {
      if (!props[f]) continue;
      flagsSeen += 1;
      assert.equal(props[f].type, 'boolean', `${name}.${f} is a flag`);
    }
    // The store-only profile analyses never profile now.
    if (/^aisp_profile_(bottleneck|roofline|compare)$/.test(name)) {
      assert.equal(props.fresh, undefined, name);
      assert.equal(t.annotations.readOnlyHint, true, `${name} reads stored profiles`);
    }
  }
  if (tools.has('aisp_hw_memory')) assert.ok(flagsSeen >= 3, 'hw probe flags were listed');
  if (tools.has('aisp_hw_disk')) assert.ok(tools.get('aisp_hw_disk').inputSchema.properties.mib.maximum <= 4096);
});

test('a flag given a string is refused and starts nothing', async () => {
  const probe = [...tools.values()].find((t) => t.inputSchema.properties?.quick);
  if (!probe) return;
  const before = (await client.callTool({ name: 'aisp_job_list', arguments: {} })).structuredContent.jobs.length;
  const r = await client.callTool({ name: probe.name, arguments: { quick: 'banana' } });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /\/quick: expected boolean/);
  const afterJobs = (await client.callTool({ name: 'aisp_job_list', arguments: {} })).structuredContent.jobs.length;
  assert.equal(afterJobs, before, 'no job queued');
});

test('every tool with every flag true: no file appears outside the artifacts directory', async () => {
  const outside = listTree(root, artifacts);
  const called = [];
  for (const [name, t] of tools) {
    const props = t.inputSchema.properties ?? {};
    const args = {};
    for (const [p, s] of Object.entries(props)) if (s.type === 'boolean') args[p] = true;
    for (const p of t.inputSchema.required ?? []) if (!(p in args)) args[p] = sample(p, props[p]);
    if (name === 'aisp_hw_disk') args.mib = 16;  // a small file; the size bound has its own test
    if (name === 'aisp_job_result') args.wait_s = 0;
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    called.push(name);
    const text = r.content?.[0]?.text ?? '';
    assert.doesNotMatch(text, /last read:/, `${name}: no parser context in answers`);
    // A job: cancel it at once, and wait until it has ended (its files are gone by then).
    const jobId = r.structuredContent?.job_id;
    if (!r.isError && jobId && t.annotations.readOnlyHint === false && name !== 'aisp_job_cancel') {
      if (name !== 'aisp_hw_disk') await client.callTool({ name: 'aisp_job_cancel', arguments: { job_id: jobId } });
      const s = await waitJob(client, jobId, ['finished', 'failed', 'cancelled']);
      assert.ok(['finished', 'failed', 'cancelled'].includes(s.state), `${name}: job ended (${s.state})`);
    }
  }
  assert.equal(called.length, tools.size);
  assert.deepEqual(listTree(root, artifacts), outside, 'files outside the artifacts directory');
  assert.deepEqual(fs.readdirSync(cwd), [], "nothing in the client's working directory");
  assert.deepEqual(diskProbeFiles(artifacts), [], 'no disk-probe file left');
  const scratch = path.join(artifacts, 'mcp', 'scratch');
  if (fs.existsSync(scratch)) assert.deepEqual(fs.readdirSync(scratch), [], 'job scratch directories removed');
});

test('a cancelled disk probe removes its file', async (t) => {
  if (!tools.has('aisp_hw_disk')) return t.skip('no aisp_hw_disk in this build');
  const r = await client.callTool({ name: 'aisp_hw_disk', arguments: { mib: 4096 } });
  assert.notEqual(r.isError, true, r.content?.[0]?.text);
  const jobId = r.structuredContent.job_id;
  // Wait until it is writing (or already over, on a very fast disk).
  for (let i = 0; i < 200 && diskProbeFiles(artifacts).length === 0; i += 1) {
    const s = (await client.callTool({ name: 'aisp_job_status', arguments: { job_id: jobId } })).structuredContent;
    if (!['queued', 'running'].includes(s.state)) break;
    await sleep(25);
  }
  const seen = diskProbeFiles(artifacts);
  assert.equal(seen.length, 1, 'the probe was writing its file when cancelled');
  assert.match(seen[0], /^mcp\/scratch\//, 'inside the job scratch directory');
  const c = (await client.callTool({ name: 'aisp_job_cancel', arguments: { job_id: jobId } })).structuredContent;
  const s = c.state === 'running' ? await waitJob(client, jobId, ['finished', 'failed', 'cancelled']) : c;
  assert.ok(['cancelled', 'finished', 'failed'].includes(s.state), s.state);
  assert.deepEqual(diskProbeFiles(artifacts), []);
  assert.deepEqual(diskProbeFiles(root), []);
});

test('closing stdin while a disk probe writes leaves no file behind', async (t) => {
  if (!tools.has('aisp_hw_disk')) return t.skip('no aisp_hw_disk in this build');
  const { c, t: tr } = await connect();
  const r = await c.callTool({ name: 'aisp_hw_disk', arguments: { mib: 4096 } });
  assert.notEqual(r.isError, true, r.content?.[0]?.text);
  for (let i = 0; i < 200 && diskProbeFiles(artifacts).length === 0; i += 1) await sleep(25);
  assert.equal(diskProbeFiles(artifacts).length, 1, 'the probe was writing its file when the client left');
  const pid = tr.pid;
  await c.close();  // closes stdin; the SDK sends SIGTERM/SIGKILL only if the server lingers
  for (let i = 0; i < 200; i += 1) {
    try { process.kill(pid, 0); } catch { break; }
    await sleep(50);
  }
  assert.deepEqual(diskProbeFiles(root), [], 'the probe file went with the server');
});
