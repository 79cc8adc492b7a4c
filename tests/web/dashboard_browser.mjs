// Drives the dashboard in headless Chromium (playwright-core, pointed at Debian's /usr/bin/chromium; no
// browser is downloaded). Every page is checked for what it must show, the browser must log no error,
// every API call must succeed, and no request may leave the loopback server (the UI needs no network).
import {createRequire} from 'node:module';
import {mkdirSync} from 'node:fs';
import {parseArgs} from 'node:util';
import assert from 'node:assert/strict';

const {values: args} = parseArgs({options: {url: {type: 'string'}, shots: {type: 'string'}, chromium: {type: 'string'}}});
const require = createRequire(process.env.AISP_WEB_NPM + '/');
const {chromium} = require('playwright-core');

const problems = [];
const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
         '--disable-sync', '--no-first-run'],
});
mkdirSync(args.shots, {recursive: true});
const origin = new URL(args.url).origin;
let step = 'start';

try {
  const page = await browser.newPage({viewport: {width: 1400, height: 900}});
  page.on('console', m => { if (m.type() === 'error') problems.push(`[${step}] console error: ${m.text()}`); });
  page.on('pageerror', e => problems.push(`[${step}] page error: ${e.message}`));
  page.on('response', r => { if (r.status() >= 400) problems.push(`[${step}] HTTP ${r.status()} for ${r.url()}`); });
  await page.route('**/*', route => {
    const u = route.request().url();
    if (!u.startsWith(origin + '/') && !u.startsWith('data:')) {
      problems.push(`[${step}] request outside the server: ${u}`);
      return route.abort();
    }
    return route.continue();
  });
  const loaded = async () => {
    await page.waitForSelector('.page[data-loaded]', {timeout: 20000});
    const state = await page.getAttribute('.page', 'data-loaded');
    const error = state === 'true' ? '' : await page.textContent('.page .error');
    assert.equal(state, 'true', `[${step}] the page failed to load: ${error}`);
  };
  // clipHeight: keep the top of a long page (the analysis page runs to several screens of tables).
  const shot = async (name, clipHeight) => {
    await page.waitForTimeout(300);  // charts draw on the next frame
    const clip = clipHeight ? {x: 0, y: 0, width: 1400, height: clipHeight} : undefined;
    await page.screenshot({path: `${args.shots}/${name}.png`, fullPage: true, clip});
  };
  const api = async path => (await (await page.request.get(`${origin}/api/${path}`)).json()).result;

  // Overview: one row per stored target, with a verdict badge and a speedup CI; the run in progress.
  step = 'overview';
  await page.goto(args.url + '/');
  await loaded();
  const bench = await api('benchmarks');
  const rows = page.locator('table.grid tbody tr');
  assert.equal(await rows.count(), bench.total, 'one overview row per target');
  for (const b of bench.benchmarks) {
    // Exact link text: "ch09:cublaslt_gemm" is also a prefix of "ch09:cublaslt_gemm_fp8".
    const exact = new RegExp('^' + b.target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
    const row = rows.filter({has: page.locator('a.target-link', {hasText: exact})});
    assert.equal(await row.locator('.badge').first().textContent(), b.badge, `${b.target} badge`);
    if (b.best_speedup !== null)
      assert.match(await row.locator('.speedup .ci').textContent(), /^\[\d/, `${b.target} shows its CI`);
    else  // a target that failed before timing (e.g. an axis its pair does not read) has no speedup to show
      assert.equal(await row.locator('.speedup .ci').count(), 0, `${b.target} shows no CI`);
  }
  await page.waitForSelector('#progress .running', {timeout: 10000});
  assert.match(await page.textContent('#progress'), /Run in progress: 29990101_000000__bench__live — ch07:transpose \(3 of 4\)/);
  await page.fill('#target-filter', 'transpose');
  assert.equal(await rows.count(), 1, 'the filter keeps the matching target only');
  await page.fill('#target-filter', '');
  await page.locator('#target-filter').blur();
  await shot('overview');

  // Target: sample distributions of baseline and variant, history chart and table.
  step = 'target';
  await page.click('a.target-link:text("ch07:transpose")');
  await loaded();
  assert.match(await page.textContent('h1'), /ch07:transpose/);
  assert.equal(await page.locator('#chart-samples canvas').count(), 1, 'sample distribution chart drawn');
  assert.equal(await page.locator('#chart-order canvas').count(), 1, 'samples-in-order chart drawn');
  assert.ok(await page.locator('.history-chart canvas').count() >= 1, 'history chart drawn');
  const legend = await page.textContent('#chart-samples .u-legend');
  assert.match(legend, /baseline \(n=\d+\)/);
  assert.match(legend, /transpose \(n=\d+\)/);
  const history = await api('targets/ch07%3Atranspose/history');
  const historyRows = page.locator('section.card:has(h2:text("History")) table.grid tbody tr');
  assert.equal(await historyRows.count(), history.rows.length, 'one history row per stored run');
  await shot('target');
  // Another run from the picker reloads the samples from that run.
  const older = history.rows[0].run;
  await page.selectOption('#run-picker', String(older.id));
  await loaded();
  assert.match(await page.textContent('#run-picker option:checked'), new RegExp(older.key));

  // Compare: two runs, every target × variant with a change call.
  step = 'compare';
  await page.click('nav a[data-nav="compare"]');
  await loaded();
  const runs = (await api('runs?calibration=0')).runs;
  await page.selectOption('#baseline', String(runs[runs.length - 1].id));
  await loaded();
  await page.waitForFunction(id => location.hash.includes(`baseline=${id}`), runs[runs.length - 1].id);
  await loaded();
  const cmp = await api(`compare?baseline=${runs[runs.length - 1].id}&candidate=${runs[0].id}`);
  const cmpRows = page.locator('section.card:has(h2:text("Targets")) table.grid tbody tr');
  assert.equal(await cmpRows.count(), cmp.rows.length, 'one compare row per target × variant');
  assert.ok(await page.locator('td .badge').count() >= cmp.rows.length, 'every row has a change badge');
  await shot('compare');

  // Analysis: Pareto and roofline charts, leaderboards.
  step = 'analysis';
  await page.click('nav a[data-nav="analysis"]');
  await loaded();
  // The run with the most targets (the newest may be an axis sweep with no FLOPs to place on the roofline).
  const widest = runs.reduce((a, b) => (b.targets > a.targets ? b : a));
  await page.goto(`${args.url}/#/analysis?run=${widest.id}`);
  await loaded();
  assert.equal(await page.locator('#chart-pareto canvas').count(), 1, 'Pareto chart drawn');
  assert.equal(await page.locator('#chart-roofline canvas').count(), 1, 'roofline chart drawn');
  assert.equal(await page.locator('.card .error').count(), 0,
               'no analysis section failed: ' + (await page.locator('.card .error').allTextContents()).join('; '));
  await shot('analysis', 1800);

  // Hardware: the live GPU card says plainly whether there is one, and what the runs recorded.
  step = 'hardware';
  await page.click('nav a[data-nav="hardware"]');
  await loaded();
  const gpu = await api('gpu');
  if (gpu.available) assert.ok(await page.locator('section.card:has(h2:text("Live GPU")) table').count() === 1);
  else assert.match(await page.textContent('#no-gpu'), /no GPU/);
  assert.match(await page.textContent('main'), /NVIDIA H100 80GB HBM3/);
  await shot('hardware');

  step = 'end';
  assert.deepEqual(problems, [], 'browser problems:\n' + problems.join('\n'));
  console.log(`dashboard browser test passed; screenshots in ${args.shots}`);
} finally {
  await browser.close();
}
