// `aisp mcp` driven by the official MCP TypeScript SDK client (Client + StdioClientTransport), the way
// Claude Desktop, VS Code and the Inspector talk to it: initialize, list tools (the SDK parses every
// schema), call every tool that needs no GPU and check structuredContent against the tool's outputSchema
// with Ajv, run a benchmark as a job (on a machine without a GPU the job fails and says why), progress,
// cancellation, and the error paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { AISP, SOURCE_DIR, referenceStore } from './mcp_process.mjs';

const SECRET = 'sk-aisp-mcp-test-0123456789abcdef';
const ajv = new Ajv({ strict: false, allErrors: true });
let store;
let client;
let serverStderr = '';
const tools = new Map();
const checked = new Set();  // tools whose call was validated here
const skipped = new Map();  // tool -> why it was not called in this environment

async function connect(extraArgs = []) {
  const transport = new StdioClientTransport({
    command: AISP,
    args: ['mcp', '--db', store.db, '--artifacts-dir', path.join(store.tmp, 'artifacts'), ...extraArgs],
    // The SDK passes only a sanitized environment unless told otherwise; keep ours plus one secret.
    env: { ...process.env, AISP_TEST_SECRET_TOKEN: SECRET },
    stderr: 'pipe',
    cwd: store.tmp,
  });
  transport.stderr?.on('data', (d) => { serverStderr += d; });
  const c = new Client({ name: 'aisp-ci', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

async function listAll(c) {
  const all = [];
  let cursor;
  let pages = 0;
  do {
    const page = await c.listTools(cursor ? { cursor } : {});
    all.push(...page.tools);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { all, pages };
}

// Calls a tool, requires success, validates structuredContent and the text copy, returns the content.
async function call(name, args = {}, options = {}) {
  const tool = tools.get(name);
  assert.ok(tool, `${name} is listed`);
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000, ...options });
  const text = r.content?.[0]?.text ?? '';
  assert.notEqual(r.isError, true, `${name}(${JSON.stringify(args)}) failed: ${text}`);
  const validate = ajv.compile(tool.outputSchema);
  assert.ok(validate(r.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
  assert.deepEqual(JSON.parse(text), r.structuredContent, `${name}: the text block is the same JSON`);
  checked.add(name);
  return r.structuredContent;
}

async function callError(name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, true, `${name}(${JSON.stringify(args)}) should be a tool error`);
  checked.add(name);
  return r.content[0].text;
}

before(async () => {
  store = referenceStore();
  client = await connect();
  for (const t of (await listAll(client)).all) tools.set(t.name, t);
});

after(async () => {
  await client?.close();
  store?.cleanup();
});

test('initialize: server info, tools capability, instructions', () => {
  assert.equal(client.getServerVersion().name, 'aisp');
  assert.match(client.getServerVersion().version, /^\d+\.\d+\.\d+/);
  assert.ok(client.getServerCapabilities().tools, 'tools capability');
  assert.match(client.getInstructions(), /aisp_job_status/);
});

test('tools/list: names, descriptions, schemas and annotations', () => {
  const required = ['aisp_status', 'aisp_triage', 'aisp_gpu_info', 'aisp_environment', 'aisp_list_chapters',
    'aisp_benchmark_targets', 'aisp_run_benchmarks', 'aisp_job_status', 'aisp_job_result', 'aisp_job_cancel',
    'aisp_job_list', 'aisp_benchmark_runs', 'aisp_benchmark_history', 'aisp_benchmark_compare_runs',
    'aisp_benchmark_expectations'];
  for (const name of required) assert.ok(tools.has(name), `${name} missing`);
  for (const [name, t] of tools) {
    assert.match(name, /^aisp_[A-Za-z0-9_]{1,59}$/);  // <= 64 chars, the conformance suite's rule
    assert.ok(t.description.length > 30, `${name}: description`);
    assert.equal(t.inputSchema.type, 'object', `${name}: inputSchema`);
    assert.equal(t.inputSchema.additionalProperties, false, `${name}: closed inputSchema`);
    assert.equal(t.outputSchema?.type, 'object', `${name}: outputSchema`);
    assert.equal(t.inputSchema.$schema, undefined);
    ajv.compile(t.inputSchema);
    ajv.compile(t.outputSchema);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', `${name}: annotations`);
  }
  // `aisp mcp --list --json` prints the same tools the server lists.
  const listed = JSON.parse(execFileSync(AISP, ['mcp', '--list', '--json', '--db', store.db], { encoding: 'utf8' }));
  assert.deepEqual(listed.map((t) => t.name), [...tools.keys()]);
});

test('tools/list pages with nextCursor', async () => {
  const paged = await connect(['--page-size', '5']);
  try {
    const { all, pages } = await listAll(paged);
    assert.equal(pages, Math.ceil(tools.size / 5));
    assert.deepEqual(all.map((t) => t.name), [...tools.keys()]);
    await assert.rejects(paged.listTools({ cursor: 'not-a-cursor' }),
      (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams);
  } finally {
    await paged.close();
  }
});

test('status, triage, GPU info and environment work without a GPU', async () => {
  const status = await call('aisp_status');
  assert.ok(status.aisp_version.length > 0);
  assert.equal(status.store.runs, store.runs.length);
  assert.equal(status.store.path, store.db);
  const gpu = await call('aisp_gpu_info');
  assert.equal(gpu.gpu_count, gpu.gpus.length);
  assert.equal(status.gpu.count, gpu.gpu_count);
  if (gpu.gpu_count === 0) assert.ok(gpu.error.length > 0, 'no GPU: the reason is given');
  else assert.ok(gpu.gpus[0].name.length > 0);
  const triage = await call('aisp_triage');
  assert.ok(triage.next_steps.length > 0);
  assert.ok(triage.environment.summary && typeof triage.environment.summary === 'object');
  const env = await call('aisp_environment');
  assert.ok(env.checks.length > 5);
  assert.ok(env.checks.every((c) => ['ok', 'warn', 'fail', 'unknown'].includes(c.status)));
  await call('aisp_environment', { validity_profile: 'strict' });
});

// A list result holds every item, or, over the server's item limit ($AISP_MCP_PREVIEW_ITEMS, 200), the
// first ones with the cut declared in _trimmed ({path, kept, total}): never a silent cut.
function assertListedOrCut(result, key, total) {
  const items = result[key];
  if (items.length === total) return;
  const cut = (result._trimmed || []).find((c) => c.path === '/' + key);
  assert.ok(cut, `a shortened ${key} list says so in _trimmed`);
  assert.equal(cut.kept, items.length);
  assert.equal(cut.total, total);
}

test('chapters and targets come from the sources and the built plugins', async () => {
  const chapters = (await call('aisp_list_chapters')).chapters;
  const ch07 = chapters.find((c) => c.chapter === 'ch07');
  assert.ok(ch07, 'ch07 listed');
  assert.ok(ch07.targets > 0 && ch07.title.length > 0);
  const all = await call('aisp_benchmark_targets');
  assertListedOrCut(all, 'targets', all.count);
  const only07 = await call('aisp_benchmark_targets', { chapter: 'ch07' });
  assert.ok(only07.targets.every((t) => t.chapter === 'ch07'));
  const copy = only07.targets.find((t) => t.target === 'ch07:copy_scalar');
  assert.ok(copy && copy.in_sources && copy.variants.length > 0);
  assert.match(await callError('aisp_benchmark_targets', { chapter: 'ch99' }), /no targets in chapter 'ch99'/);
});

test('stored runs, history and run comparison over the reference H100 runs', async () => {
  const runs = await call('aisp_benchmark_runs');
  assert.equal(runs.total, store.runs.length);
  assert.equal((await call('aisp_benchmark_runs', { limit: 2 })).runs.length, 2);
  const history = await call('aisp_benchmark_history', { target: 'ch07:copy_scalar' });
  assert.ok(history.rows.length >= 3);
  assert.ok(history.rows.every((r) => r.run.hardware_key === 'h100_80gb_hbm3'));
  const cold = await call('aisp_benchmark_history', { target: 'ch07:copy_scalar', mode: 'cold', hardware_key: 'h100_80gb_hbm3' });
  assert.ok(cold.rows.length > 0);
  const cmp = await call('aisp_benchmark_compare_runs');
  assert.notEqual(cmp.a.id, cmp.b.id);
  assert.ok(cmp.rows.length > 0);
  assert.equal(cmp.slower, cmp.rows.filter((r) => r.change === 'slower').length);
  const byId = await call('aisp_benchmark_compare_runs', { run_a: String(runs.runs[1].id), run_b: runs.runs[3].run });
  assert.equal(byId.a.id, runs.runs[1].id);
  const byInteger = await call('aisp_benchmark_compare_runs', { run_a: runs.runs[0].id, run_b: runs.runs[2].id });
  assert.deepEqual([byInteger.a.id, byInteger.b.id], [runs.runs[0].id, runs.runs[2].id], 'integer run ids');
  assert.match(await callError('aisp_benchmark_history', { target: 'ch07:copy_scalr' }), /ch07:copy_scalar/);
  assert.match(await callError('aisp_benchmark_compare_runs', { run_a: 'nonexistent-run' }), /nonexistent-run/);
});

test('expectations from the chapters', async () => {
  const e = await call('aisp_benchmark_expectations', { show_all: true });
  assert.equal(path.resolve(e.source_root), path.resolve(SOURCE_DIR));
  assertListedOrCut(e, 'entries', e.total);
  const strict = await call('aisp_benchmark_expectations', { hardware: 'h100', min_speedup: 2 });
  assert.ok(strict.entries.every((x) => x.best_improvement >= 2 && x.hardware_key.startsWith('h100')));
});

test('export, topology and power, system software, run triage, expectations report', async () => {
  const runs = (await call('aisp_benchmark_runs')).runs;
  if (tools.has('aisp_benchmark_export')) {
    const csv = await call('aisp_benchmark_export', { format: 'csv' });
    assert.equal(csv.run, runs[runs.length - 1].run, 'latest by default');
    assert.ok(csv.content.split('\n').length > 2 && csv.document === null);
    const nv = await call('aisp_benchmark_export', { format: 'nvbench', run: runs[0].id });
    assert.equal(nv.run, runs[0].run, 'an integer run id');
    assert.ok(nv.document && typeof nv.document === 'object');
    const gb = await call('aisp_benchmark_export', { format: 'gbench', samples_as_repetitions: true });
    assert.ok(gb.command.includes('--samples-as-repetitions') && Array.isArray(gb.document.benchmarks));
    assert.match(await callError('aisp_benchmark_export', { format: 'csv', run: 'no-such-run' }), /unknown run/);
  }
  const gpu = await call('aisp_gpu_info');
  const topo = await call('aisp_gpu_topology_power');
  assert.equal(topo.gpu_count, gpu.gpu_count);
  assert.equal(topo.gpus.length, gpu.gpus.length);
  assert.ok(topo.host.cpus > 0);
  const sw = await call('aisp_system_software');
  assert.ok(sw.os.kernel.length > 0 && sw.os.glibc.length > 0);
  assert.deepEqual(sw.dependencies.map((d) => d.name).sort(), ['compute-sanitizer', 'ncu', 'nsys', 'nvcc']);
  for (const d of sw.dependencies) assert.equal(d.found, d.path !== null, d.name);
  const triage = await call('aisp_run_triage');
  assert.equal(triage.run.name, runs[runs.length - 1].run);
  assert.equal(triage.targets, runs[runs.length - 1].targets);
  assert.equal(Object.values(triage.counts).reduce((a, b) => a + b, 0), triage.findings.length);
  assert.equal(triage.healthy.length + new Set(triage.findings.map((f) => f.target)).size, triage.targets);
  assert.ok(triage.next_steps.length > 0 && triage.findings.every((f) => f.recommendation.length > 10));
  assert.equal((await call('aisp_run_triage', { run: runs[0].id })).run.id, runs[0].id);
  const rep = await call('aisp_expectations_report');
  const keys = rep.hardware.map((h) => h.hardware_key);
  assert.ok(keys.includes('h100_80gb_hbm3'), keys.join(','));
  for (const h of rep.hardware) assert.ok(h.meeting_min_speedup + h.needs_work.length === h.entries, h.hardware_key);
  if (keys.includes('h200')) {
    // The host-bound pair of issue 19: 1.787x on the H100 host, 1.201x on the H200 host.
    const dbuf = rep.across_machines.find((r) => r.target === 'ch03:double_buffered_batch_provisioning');
    assert.ok(dbuf && dbuf.ratio > 1.4 && dbuf.cis_disjoint, JSON.stringify(dbuf));
  }
});

test('analysis tools present in this build return their documents', async () => {
  // whatif needs at least one constraint; the others run on the newest stored run as they are.
  const args = { aisp_analyze_whatif: { vram: 80 } };
  const analysis = [...tools.keys()].filter((n) => n.startsWith('aisp_analyze'));
  for (const name of analysis) {
    const r = await call(name, args[name] ?? {});
    assert.equal(r.command[0], 'aisp');
    assert.ok(r.document && typeof r.document === 'object', name);
  }
  if (tools.has('aisp_analyze_whatif')) {
    const w = await call('aisp_analyze_whatif', { vram: 1, latency: 0.05 });
    assert.ok(w.command.includes('--vram=1'));
  }
  if (tools.has('aisp_benchmark_report')) {
    const rep = await call('aisp_benchmark_report', { title: 'MCP test' });
    assert.match(rep.markdown, /MCP test/);
  }
});

test('AI tools answer from stored facts, each citing its run', async () => {
  // ch07:transpose on the reference H100 runs: the verdict with its CI and the roofline placement, cited by
  // run id; no profile is stored, and the answer says so.
  const ex = await call('aisp_explain', { target: 'ch07:transpose' });
  assert.equal(ex.answer.command, 'explain');
  const runCite = ex.answer.citations.find((c) => c.kind === 'run');
  assert.ok(runCite && /^run \d+$/.test(runCite.id), JSON.stringify(ex.answer.citations));
  const verdict = ex.answer.facts.find((f) => f.topic === 'verdict' && f.variant === 'transpose');
  assert.match(verdict.text, /faster than the baseline, 95% CI \[/);
  assert.equal(verdict.cite, runCite.id);
  assert.ok(ex.answer.facts.some((f) => f.topic === 'roofline' && /% of the \d+ GB\/s bandwidth roof/.test(f.text)));
  assert.ok(ex.answer.missing.some((m) => /no ncu profile stored for ch07:transpose/.test(m)));
  assert.ok(!ex.command.some((a) => a.startsWith('--endpoint')));
  const asked = await call('aisp_ask', { question: 'why is ch07:copy_scalar faster?' });
  assert.ok(asked.answer.facts.length > 0 && asked.answer.facts.every((f) => f.target === 'ch07:copy_scalar'));
  const sug = await call('aisp_suggest_optimizations', { target: 'ch07:matmul', top: 3 });
  assert.ok(sug.answer.suggestions.length > 0 && sug.answer.suggestions.length <= 3);
  assert.ok(sug.answer.citations.some((c) => c.kind === 'patterns'));
  assert.match(await callError('aisp_explain', { target: 'ch07:no_such_pair' }), /no stored result for target/);
  const tl = await call('aisp_suggest_tools', { query: 'explain why a speedup happened', max_suggestions: 3 });
  assert.equal(tl.suggestions[0].tool, 'aisp_explain');
  assert.ok(tl.suggestions.length <= 3);
  assert.ok(!('endpoint' in tools.get('aisp_ask').inputSchema.properties), 'no outbound endpoint from the server');
});

test('a benchmark run is a job: id at once, status, result (no GPU: the job fails and says why)', async () => {
  const gpu = await call('aisp_gpu_info');
  const targets = (await call('aisp_benchmark_targets')).targets;
  const built = targets.find((t) => t.built && t.chapter.startsWith('ch'));
  const target = built?.target ?? 'ch07:copy_scalar';
  const t0 = Date.now();
  const started = await call('aisp_run_benchmarks', { targets: [target], iterations: 20, time_limit: 5 });
  assert.ok(Date.now() - t0 < 5000, 'returns before the work is done');
  assert.match(started.job_id, /^job-/);
  assert.ok(['queued', 'running'].includes(started.state));
  assert.ok(started.command.includes('--json'));
  let status;
  for (let i = 0; i < 600; i += 1) {
    status = await call('aisp_job_status', { job_id: started.job_id });
    if (!['queued', 'running'].includes(status.state)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const result = await call('aisp_job_result', { job_id: started.job_id, wait_s: 1 });
  assert.equal(result.ready, true);
  assert.equal(result.job.state, status.state);
  if (gpu.gpu_count === 0 || !built) {
    assert.equal(status.state, 'failed');
    assert.equal(status.exit_code, 2);
    assert.match(status.exit_meaning, /^2: usage error/);
    if (!built) assert.match(status.error, /plugins|unknown target/i);
    else assert.match(status.error, /GPU|CUDA/);
    assert.deepEqual(result.summary, []);
  } else {
    assert.equal(status.state, 'finished');
    assert.equal(result.summary[0].target, target);
    assert.ok(result.run_dir);
    const full = await call('aisp_job_result', { job_id: started.job_id, detail: 'full' });
    assert.ok(full.result);
  }
  const cancelled = await call('aisp_job_cancel', { job_id: started.job_id });
  assert.equal(cancelled.state, status.state, 'cancelling an ended job changes nothing');
  const jobs = await call('aisp_job_list');
  assert.ok(jobs.jobs.some((j) => j.job_id === started.job_id));
  assert.match(await callError('aisp_job_status', { job_id: 'job-0000-1' }), /unknown job_id/);
  assert.match(await callError('aisp_job_result', { job_id: 'nope' }), /unknown job_id/);
});

test('hardware probe and profiler tools start jobs (run here only without a GPU: they fail fast)', async () => {
  const gpu = await call('aisp_gpu_info');
  const storeOnly = /^aisp_profile_(bottleneck|roofline|compare)$/;
  // Analyses of stored profiles: synchronous, read-only, no GPU; the reference store holds no profiles.
  for (const name of [...tools.keys()].filter((n) => storeOnly.test(n))) {
    assert.equal(tools.get(name).annotations.readOnlyHint, true, name);
    const args = name === 'aisp_profile_compare' ? { target: 'ch07:copy_scalar' } : {};
    assert.match(await callError(name, args), /no stored ncu profile/, name);
  }
  const jobTools = [...tools.keys()].filter((n) => /^aisp_(hw|profile)_/.test(n) && !storeOnly.test(n));
  for (const name of jobTools) {
    assert.equal(tools.get(name).annotations.readOnlyHint, false);
    if (gpu.gpu_count > 0 || name === 'aisp_hw_disk') {
      skipped.set(name, name === 'aisp_hw_disk' ? 'writes and reads a large file' : 'minutes of GPU measurements');
      continue;
    }
    const started = await call(name, {});
    const done = await call('aisp_job_result', { job_id: started.job_id, wait_s: 30 });
    assert.equal(done.ready, true, `${name} ended`);
    // Host probes need no GPU: the loopback network probe measures, the InfiniBand one finds no port
    // (or measures one) and says so; neither may claim a GPU it does not use.
    if (/^aisp_hw_(network|ib)$/.test(name)) {
      if (done.job.state !== 'finished') assert.match(done.job.error, /InfiniBand|infiniband|network|no /, name);
      continue;
    }
    assert.equal(done.job.state, 'failed', name);
    // Probes fail for want of a GPU; profilers may fail first for want of their tool (ncu,
    // compute-sanitizer, nsys: "not found", where it looked) or of a target / stored profile (usage, exit 2).
    assert.match(done.job.error, name.startsWith('aisp_profile_') ? /GPU|CUDA|device|not found|target|profile/i
                                                                   : /GPU|CUDA|device/i, name);
  }
});

test('progress notifications while a call runs', async () => {
  const seen = [];
  await call('aisp_triage', {}, { onprogress: (p) => seen.push(p), resetTimeoutOnProgress: true });
  assert.ok(seen.length >= 2, `progress reports: ${seen.length}`);
  for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i].progress > seen[i - 1].progress);
  assert.match(seen[0].message, /running aisp info gpu/);
});

test('a cancelled call leaves the server answering', async () => {
  const abort = new AbortController();
  const pending = client.callTool({ name: 'aisp_triage', arguments: {} }, undefined, { signal: abort.signal });
  setTimeout(() => abort.abort('test'), 5);
  await assert.rejects(pending);
  await client.ping();
  assert.equal((await call('aisp_status')).aisp_version.length > 0, true);
});

test('error paths: unknown tool is a protocol error, bad arguments are tool errors', async () => {
  await assert.rejects(client.callTool({ name: 'aisp_does_not_exist', arguments: {} }),
    (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams && /Unknown tool/.test(e.message));
  assert.match(await callError('aisp_benchmark_history', {}), /missing required property "target"/);
  assert.match(await callError('aisp_benchmark_history', { target: 7 }), /\/target: expected string/);
  assert.match(await callError('aisp_status', { verbose: true }), /\/verbose: unknown property/);
  assert.match(await callError('aisp_benchmark_runs', { limit: 0 }), /below the minimum/);
  assert.match(await callError('aisp_run_benchmarks', { targets: ['--update-expectations'] }), /invalid target/);
  assert.match(await callError('aisp_run_benchmarks', { targets: [] }), /targets is empty/);
  assert.match(await callError('aisp_run_benchmarks', { targets: ['ch07'], mode: 'warm' }), /is not one of/);
});

test('secrets from the environment never come back, and arguments are not expanded', async () => {
  const echoed = await callError('aisp_benchmark_history', { target: `ch07:${SECRET}` });
  assert.ok(!echoed.includes(SECRET), echoed);
  assert.match(echoed, /\[redacted:AISP_TEST_SECRET_TOKEN\]/);
  const literal = await callError('aisp_benchmark_history', { target: '$AISP_TEST_SECRET_TOKEN' });
  assert.ok(literal.includes('$AISP_TEST_SECRET_TOKEN') && !literal.includes(SECRET));
});

test('every listed tool was exercised', (t) => {
  for (const [name, why] of skipped) t.diagnostic(`not called here: ${name} (${why})`);
  const untested = [...tools.keys()].filter((n) => !checked.has(n) && !skipped.has(n));
  assert.deepEqual(untested, [], 'add a call for each new tool');
});
