// A hostile corpus against every tool's arguments, built from the tool list of the binary at hand, sent
// one call at a time over raw JSON-RPC (one call at a time so that no answer is a mere "server busy"):
//   - wrong types for every property (a string for a flag, numbers for strings, objects, arrays, null);
//   - path traversal and absolute paths in every string (and every array of strings);
//   - huge strings and arrays, and property names that mean something to JavaScript or to the shell.
// What must hold: wrong types and oversized values are refused (isError, naming the field); a path in a
// tool that starts work is refused and starts no job; no answer shows a file's bytes or a parser's
// context; nothing is written outside the server's artifacts directory; stdout carries only JSON-RPC,
// and the server exits 0 on end-of-file. The corpus is deterministic and bounded (about 2,000 calls,
// each answered in milliseconds: nothing in it reaches a GPU or a long child command).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AISP, init, initialized } from './mcp_process.mjs';

const PATHS = ['/etc/shadow', '/etc/passwd', '../../../../../../etc/passwd', 'ch07/../../../../etc/shadow',
  '~/.ssh/id_rsa', '/proc/self/environ', '..', '/'];
const HUGE_STRING = 'A'.repeat(100000);
const WRONG = [7, 1.5, -1, true, false, null, {}, { a: 1 }, [], ['x'], 'banana', ''];
const ODD_NAMES = ['__proto__', 'constructor', 'prototype', '$(id)', '`id`', '--json', 'db', 'dir', 'artifacts_dir'];

function typeOk(schema, v) {
  const types = [].concat(schema.type ?? []);
  if (types.length === 0) return true;
  return types.some((t) => (t === 'string' && typeof v === 'string') || (t === 'boolean' && typeof v === 'boolean')
    || (t === 'integer' && Number.isInteger(v)) || (t === 'number' && typeof v === 'number')
    || (t === 'array' && Array.isArray(v)) || (t === 'object' && v && typeof v === 'object' && !Array.isArray(v))
    || (t === 'null' && v === null));
}

// Arguments that satisfy the required properties, so a case fails only for the property it tests.
function base(tool) {
  const props = tool.inputSchema.properties ?? {};
  const out = {};
  for (const p of tool.inputSchema.required ?? []) {
    const s = props[p];
    if (s.enum) out[p] = s.enum[0];
    else if (s.type === 'array') out[p] = ['ch07:copy_scalar'];
    else if (s.type === 'string') out[p] = p === 'job_id' ? 'job-0000-0' : 'ch07:copy_scalar';
    else if (s.type === 'boolean') out[p] = false;
    else out[p] = s.minimum ?? 1;
  }
  return out;
}

function buildCorpus(tools) {
  const cases = [];
  for (const t of tools) {
    const props = t.inputSchema.properties ?? {};
    const startsWork = t.annotations?.readOnlyHint === false;
    for (const [name, s] of Object.entries(props)) {
      for (const v of WRONG) {
        if (typeOk(s, v)) continue;
        cases.push({ tool: t.name, args: { ...base(t), [name]: v }, expect: 'isError', why: `${name} wrong type` });
      }
      const isStr = [].concat(s.type).includes('string') && !s.enum;
      const isStrArray = s.type === 'array' && s.items?.type === 'string' && !s.items.enum;
      if (isStr || isStrArray) {
        for (const p of PATHS) {
          const v = isStr ? p : [p];
          // A tool that starts work must refuse it; a query may answer (an empty list, "no stored runs").
          cases.push({ tool: t.name, args: { ...base(t), [name]: v }, expect: startsWork ? 'isError' : 'any', why: `${name} = ${p}` });
        }
        cases.push({ tool: t.name, args: { ...base(t), [name]: isStr ? HUGE_STRING : [HUGE_STRING] }, expect: 'isError', why: `${name} huge` });
      }
      if (s.type === 'array') {
        const many = Array.from({ length: 5000 }, (_, i) => (s.items?.type === 'string' ? `x${i}` : i));
        cases.push({ tool: t.name, args: { ...base(t), [name]: many }, expect: 'isError', why: `${name} 5000 items` });
      }
    }
    for (const odd of ODD_NAMES) {
      if (props[odd]) continue;
      cases.push({ tool: t.name, args: { ...base(t), [odd]: '/etc/shadow' }, expect: 'isError', why: `unknown ${odd}` });
    }
  }
  return cases;
}

// One `aisp mcp` process, driven one request at a time.
function server(args, cwd) {
  const child = spawn(AISP, ['mcp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map();
  const raw = [];
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl; (nl = buf.indexOf('\n')) >= 0;) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      raw.push(line);
      let m;
      try { m = JSON.parse(line); } catch { continue; }
      const w = waiting.get(m.id);
      if (w) { waiting.delete(m.id); w(m); }
    }
  });
  child.stderr.on('data', () => {});
  let next = 1;
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = next++;
    const timer = setTimeout(() => reject(new Error(`no answer to ${method} ${JSON.stringify(params).slice(0, 200)}`)), 60000);
    waiting.set(id, (m) => { clearTimeout(timer); resolve(m); });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
  const exit = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, request, raw, exit, notify: (m) => child.stdin.write(`${JSON.stringify(m)}\n`) };
}

function listTree(dir, skip) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p === skip) continue;
      out.push(path.relative(dir, p));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

test('hostile arguments for every tool: refused where they must be, nothing leaked, nothing started', { timeout: 300000 }, async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aisp-mcp-hostile-'));
  const artifacts = path.join(root, 'artifacts');
  const cwd = path.join(root, 'cwd');
  fs.mkdirSync(cwd);
  try {
    const tools = JSON.parse(execFileSync(AISP, ['mcp', '--list', '--json', '--artifacts-dir', artifacts], { encoding: 'utf8' }));
    const corpus = buildCorpus(tools);
    assert.ok(corpus.length > 500, `corpus of ${corpus.length} calls`);
    const before = listTree(root, artifacts);
    const s = server(['--artifacts-dir', artifacts], cwd);
    const hello = await s.request('initialize', init(0).params);
    assert.ok(hello.result, 'initialized');
    s.notify(initialized);
    const t0 = Date.now();
    const failures = [];
    let refused = 0;
    for (const c of corpus) {
      const m = await s.request('tools/call', { name: c.tool, arguments: c.args });
      const text = JSON.stringify(m);
      if (m.result?.isError) refused += 1;
      if (!m.result) failures.push(`${c.tool} (${c.why}): protocol error ${text.slice(0, 200)}`);
      else if (c.expect === 'isError' && m.result.isError !== true) failures.push(`${c.tool} (${c.why}): accepted`);
      if (/root:[^:]*:\d+:|last read:|PRIVATE KEY/.test(text)) failures.push(`${c.tool} (${c.why}): leaks file content`);
    }
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} failures`);
    const jobs = await s.request('tools/call', { name: 'aisp_job_list', arguments: {} });
    assert.deepEqual(jobs.result.structuredContent.jobs, [], 'no hostile call started a job');
    const seconds = (Date.now() - t0) / 1000;
    t.diagnostic(`${corpus.length} calls over ${tools.length} tools in ${seconds} s; ${refused} refused (isError)`);
    assert.ok(seconds < 240, `the corpus took ${seconds} s`);
    s.child.stdin.end();
    const { code } = await s.exit;
    assert.equal(code, 0, 'exit 0 on end-of-file');
    for (const line of s.raw) assert.equal(JSON.parse(line).jsonrpc, '2.0', 'stdout carries only JSON-RPC');
    assert.deepEqual(listTree(root, artifacts), before, 'nothing written outside the artifacts directory');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
