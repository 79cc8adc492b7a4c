// Drives the dashboard in headless Chromium (playwright-core, pointed at Debian's /usr/bin/chromium; no
// browser is downloaded). Every page is checked for what it must show, the browser must log no error,
// every API call must succeed, and no request may leave the loopback server (the UI needs no network).
//
// Robust under CPU load: every navigation waits for the *new* page's own data-loaded marker (each
// rendering carries a generation number, data-gen, that only grows), never the previous page's; charts
// are waited for, not given a fixed delay; timeouts are generous (a loaded 2-core machine is slow, not
// broken).
import {createRequire} from 'node:module';
import {mkdirSync} from 'node:fs';
import {parseArgs} from 'node:util';
import assert from 'node:assert/strict';

const {values: args} = parseArgs({options: {url: {type: 'string'}, shots: {type: 'string'}, chromium: {type: 'string'}}});
const require = createRequire(process.env.AISP_WEB_NPM + '/');
const {chromium} = require('playwright-core');

const TIMEOUT = 60000;
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
  page.setDefaultTimeout(TIMEOUT);
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

  // The generation of the page on screen (0 before the first rendering).
  const generation = async () => page.evaluate(() => Number(document.querySelector('.page')?.dataset.gen || 0));
  // Waits until a rendering newer than `after` has finished loading, and checks it loaded without error.
  const loadedAfter = async after => {
    await page.waitForFunction(g => {
      const p = document.querySelector('.page');
      return p && Number(p.dataset.gen) > g && p.dataset.loaded;
    }, after, {timeout: TIMEOUT, polling: 50});
    const state = await page.getAttribute('.page', 'data-loaded');
    const error = state === 'true' ? '' : await page.textContent('.page .error');
    assert.equal(state, 'true', `[${step}] the page failed to load: ${error}`);
  };
  // Performs `action` (a click, a goto, a select) and waits for the page it leads to.
  const navigate = async action => {
    const before = await generation();
    await action();
    await loadedAfter(before);
  };
  // fullPage screenshots, or the top `clipHeight` pixels of a long page.
  const shot = async (name, clipHeight) => {
    await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));  // charts drawn
    const clip = clipHeight ? {x: 0, y: 0, width: 1400, height: clipHeight} : undefined;
    await page.screenshot({path: `${args.shots}/${name}.png`, fullPage: true, clip});
  };
  const api = async path => (await (await page.request.get(`${origin}/api/${path}`)).json()).result;
  const exact = text => new RegExp('^' + text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
  // The document must not be wider than the 1400 px window: no column off screen.
  const fitsWidth = async () => {
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(w <= 1400, `[${step}] the page is ${w} px wide, wider than the 1400 px window`);
  };

  // Overview: one table per GPU type, one row per stored target; badges from the status.
  step = 'overview';
  await navigate(() => page.goto(args.url + '/'));
  const bench = await api('benchmarks');
  const rows = page.locator('section.gpu-group table.grid tbody tr:not(.empty-row)');
  assert.equal(await rows.count(), bench.total, 'one overview row per target and GPU');
  const gpus = [...new Set(bench.benchmarks.map(b => b.hardware_key))];
  assert.equal(await page.locator('section.gpu-group').count(), gpus.length, 'one table per GPU type');
  for (const b of bench.benchmarks) {
    const row = page.locator(`section.gpu-group[data-gpu="${b.hardware_key}"] table.grid tbody tr`)
      .filter({has: page.locator('a.target-link', {hasText: exact(b.target)})});
    assert.equal(await row.count(), 1, `${b.target} on ${b.hardware_key}: one row`);
    assert.equal(await row.locator('.badge').first().textContent(), b.badge, `${b.target} badge`);
    // The link opens this GPU's run, not whichever run is newest.
    const href = await row.locator('a.target-link').getAttribute('href');
    assert.ok(href.includes(`run=${b.run.id}`) && href.includes(`hw=${encodeURIComponent(b.hardware_key)}`), `${b.target} link ${href}`);
    if (b.status !== 'succeeded') {
      assert.notEqual(b.badge, 'FASTER', `${b.target}: status ${b.status} must not read FASTER`);
      assert.match(await row.getAttribute('class'), /tone-bad|tone-none|tone-warn/, `${b.target} row tone`);
    }
    if (['failed_regression', 'failed_error', 'failed_verification', 'invalid'].includes(b.status)) {
      assert.match(await row.getAttribute('class'), /tone-bad/, `${b.target}: a ${b.status} row is red`);
      assert.equal((await row.locator('.reason').textContent()).trim(), b.reason, `${b.target}: reason inline`);
    }
    if (b.best_speedup !== null)
      assert.match(await row.locator('.speedup .ci').textContent(), /^\[\d/, `${b.target} shows its CI`);
    else  // a target that failed before timing (e.g. an axis its pair does not read) has no speedup to show
      assert.equal(await row.locator('.speedup .ci').count(), 0, `${b.target} shows no CI`);
  }
  await page.waitForSelector('#progress .running');
  assert.match(await page.textContent('#progress'), /Run in progress: 29990101_000000__bench__live — ch07:transpose \(3 of 4\)/);
  await page.fill('#target-filter', 'transpose');
  const matching = bench.benchmarks.filter(b => b.target.includes('transpose')).length;
  assert.equal(await rows.count(), matching, 'the filter keeps the matching rows only');
  await page.fill('#target-filter', '');
  await page.locator('#target-filter').blur();
  // Sorting: a click on "Baseline" orders the first GPU's rows by baseline median.
  const firstTable = page.locator('section.gpu-group').first();
  await firstTable.locator('th:has-text("Baseline")').click();
  assert.equal(await firstTable.locator('th:has-text("Baseline")').getAttribute('aria-sort'), 'ascending');
  await firstTable.locator('th:has-text("Target")').click();
  await fitsWidth();
  await shot('dashboard_overview');

  // Target: sample distributions of baseline and variant, history chart and table.
  step = 'target';
  const transpose = bench.benchmarks.find(b => b.target === 'ch07:transpose' && b.hardware_key === 'h100_80gb_hbm3');
  await navigate(() => page.locator(`section.gpu-group[data-gpu="h100_80gb_hbm3"] a.target-link`, {hasText: exact('ch07:transpose')}).click());
  assert.match(await page.textContent('h1'), /ch07:transpose/);
  assert.match(await page.textContent('#run-picker option:checked'), new RegExp(transpose.run.key), 'the run the link named');
  await page.waitForSelector('#chart-samples canvas');
  assert.equal(await page.locator('#chart-samples canvas').count(), 1, 'sample distribution chart drawn');
  assert.equal(await page.locator('#chart-order canvas').count(), 1, 'samples-in-order chart drawn');
  assert.ok(await page.locator('.history-chart canvas').count() >= 1, 'history chart drawn');
  const legend = await page.textContent('#chart-samples .u-legend');
  assert.match(legend, /baseline \(n=\d+\)/);
  assert.match(legend, /transpose \(n=\d+\)/);
  const history = await api('targets/ch07%3Atranspose/history');
  const historyRows = page.locator('section.card:has(h2:text("History")) table.grid tbody tr:not(.empty-row)');
  assert.equal(await historyRows.count(), history.rows.length, 'one history row per stored run');
  await fitsWidth();
  await shot('dashboard_target');
  // Another run from the picker reloads the samples from that run.
  const older = history.rows[0].run;
  await navigate(() => page.selectOption('#run-picker', String(older.id)));
  assert.match(await page.textContent('#run-picker option:checked'), new RegExp(older.key));

  // A target whose status is failed_regression: red REGRESSION, the missed expectation on the page.
  step = 'regression';
  const regression = bench.benchmarks.find(b => b.status === 'failed_regression');
  assert.ok(regression, 'the reference data holds a failed_regression target');
  await navigate(() => page.goto(`${args.url}/#/target/${encodeURIComponent(regression.target)}?run=${regression.run.id}&hw=${regression.hardware_key}`));
  assert.equal(await page.textContent('h1 .badge'), 'REGRESSION');
  const regressionBox = await page.textContent('#verdict-reason');
  assert.match(regressionBox, /expectation missed/);
  assert.match(regressionBox, /expected \d/, 'the expected speedup is on the page');
  await fitsWidth();
  await shot('dashboard_target_regression');

  // A failed target: FAILED with its reason inline, no empty charts, no green "0 passed".
  step = 'failed';
  const failed = bench.benchmarks.find(b => b.status === 'failed_error');
  assert.ok(failed, 'the reference data holds a failed_error target');
  await navigate(() => page.goto(`${args.url}/#/target/${encodeURIComponent(failed.target)}?run=${failed.run.id}&hw=${failed.hardware_key}`));
  assert.equal(await page.textContent('h1 .badge'), 'FAILED');
  assert.ok((await page.textContent('#verdict-reason')).includes(failed.reason), 'the failure reason is on the page');
  assert.equal(await page.locator('#chart-samples').count(), 0, 'no empty sample chart');
  assert.equal(await page.locator('#no-samples').count(), 1, 'says there are no samples');
  assert.equal(await page.locator('.history-chart').count(), 0, 'no empty history chart');
  assert.equal(await page.locator('summary.good:has-text("0 passed")').count(), 0, 'no green "0 passed"');
  await fitsWidth();
  await shot('dashboard_target_failed');

  // Compare: by default the newest run against the previous one on the same GPU and mode.
  step = 'compare';
  await navigate(() => page.click('nav a[data-nav="compare"]'));
  const allRuns = (await api('runs?limit=500')).runs;
  const candidate = allRuns.find(r => !r.calibration && r.previous_same !== null);
  const baselineRun = allRuns.find(r => r.id === candidate.previous_same);
  assert.equal(await page.inputValue('#candidate'), String(candidate.id), 'default candidate');
  assert.equal(await page.inputValue('#baseline'), String(baselineRun.id), 'default baseline');
  assert.equal(candidate.hardware_key, baselineRun.hardware_key, 'same GPU');
  assert.equal(candidate.mode, baselineRun.mode, 'same mode');
  const defaultCmp = await api(`compare?baseline=${baselineRun.id}&candidate=${candidate.id}`);
  const defaultBoth = defaultCmp.rows.filter(r => r.in_baseline && r.in_candidate).length;
  assert.equal(await page.locator('section.card:has(h2:text("Targets")) table.grid tbody tr:not(.empty-row)').count(), defaultBoth,
               'the default comparison shows the rows both runs hold');
  await fitsWidth();
  await shot('dashboard_compare');
  // Another baseline: the oldest benchmark run of the candidate's GPU.
  const sameGpu = allRuns.filter(r => !r.calibration && r.hardware_key === candidate.hardware_key && r.id !== candidate.id);
  const oldest = sameGpu[sameGpu.length - 1];
  await navigate(() => page.selectOption('#baseline', String(oldest.id)));
  assert.ok((await page.evaluate(() => location.hash)).includes(`baseline=${oldest.id}`));
  const cmp = await api(`compare?baseline=${oldest.id}&candidate=${candidate.id}`);
  const inBoth = cmp.rows.filter(r => r.in_baseline && r.in_candidate).length;
  const cmpRows = page.locator('section.card:has(h2:text("Targets")) table.grid tbody tr:not(.empty-row)');
  assert.equal(await cmpRows.count(), inBoth, 'one compare row per target × variant in both runs');
  if (inBoth < cmp.rows.length) {
    await page.check('#show-one-sided');
    assert.equal(await cmpRows.count(), cmp.rows.length, 'and the one-sided rows on request');
    await page.uncheck('#show-one-sided');
  }
  assert.ok(await page.locator('td .badge').count() >= inBoth, 'every row has a change badge');
  await fitsWidth();

  // Analysis: sections with anchors, Pareto and roofline charts, leaderboards; no section fails.
  step = 'analysis';
  await navigate(() => page.click('nav a[data-nav="analysis"]'));
  // The run with the most targets (the newest may be an axis sweep with no FLOPs to place on the roofline).
  const benchRuns = allRuns.filter(r => !r.calibration);
  const widest = benchRuns.reduce((a, b) => (b.targets > a.targets ? b : a));
  await navigate(() => page.goto(`${args.url}/#/analysis?run=${widest.id}`));
  await page.waitForSelector('#chart-pareto canvas');
  await page.waitForSelector('#chart-roofline canvas');
  assert.equal(await page.locator('.card .error').count(), 0,
               'no analysis section failed: ' + (await page.locator('.card .error').allTextContents()).join('; '));
  await fitsWidth();
  await shot('dashboard_analysis', 1800);

  // Hardware: the live GPU card says plainly whether there is one, and what the runs recorded.
  step = 'hardware';
  await navigate(() => page.click('nav a[data-nav="hardware"]'));
  const gpu = await api('gpu');
  if (gpu.available) assert.ok(await page.locator('section.card:has(h2:text("Live GPU")) table').count() === 1);
  else assert.match(await page.textContent('#no-gpu'), /no GPU/);
  assert.match(await page.textContent('main'), /NVIDIA H100 80GB HBM3/);
  await fitsWidth();
  await shot('dashboard_hardware');

  step = 'end';
  assert.deepEqual(problems, [], 'browser problems:\n' + problems.join('\n'));
  console.log(`dashboard browser test passed; screenshots in ${args.shots}`);
} finally {
  await browser.close();
}
