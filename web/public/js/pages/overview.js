// Overview: the newest result of every target, one table per GPU type, with its verdict and speedup CI.
// The badge comes from the target's status (server side): failures and regressions are red and say why
// on the row itself; every link carries the run (and so the GPU) the row came from.
import {api} from '../api.js';
import {card, dataTable, h} from '../dom.js';
import {badge, badgeTone, fmt, ms, rate, speedupCell, stamp} from '../format.js';

export async function render(root) {
  const [summary, bench] = await Promise.all([api('summary'), api('benchmarks')]);
  root.appendChild(h('h1', {}, 'Overview'));
  const failing = bench.benchmarks.filter(b => badgeTone(b.badge) === 'bad').length;
  root.appendChild(h('div', {class: 'cards'},
    stat('Targets', summary.targets, `${summary.latest_results} newest results across ${summary.hardware_keys.length} GPU type(s)`),
    stat('Runs', summary.runs, `${summary.complete_runs} complete · ${summary.calibration_runs} A/A calibration`),
    stat('Geomean best speedup', summary.geomean_best_speedup ? fmt(summary.geomean_best_speedup, 4) + '×' : '–',
         `over ${summary.geomean_over} succeeded target(s)`),
    stat('Regressions', summary.regressions.length, 'vs stored expectations', summary.regressions.length ? 'bad' : 'good', 'stat-regressions'),
    stat('Failing', failing, 'failed, regressed, missed or slower', failing ? 'bad' : 'good', 'stat-failing'),
    stat('Verdicts', Object.entries(summary.by_badge).map(([k, v]) => h('span', {class: 'inline'}, badge(k), ' ', v)), ''),
    stat('Latest run', summary.latest_run ? stamp(summary.latest_run.stamp) : '–',
         summary.latest_run ? `${summary.latest_run.hardware_key} · ${summary.latest_run.mode} · ${summary.latest_run.label || summary.latest_run.key}` : 'no runs stored', 'small')));

  const filter = h('input', {type: 'search', placeholder: 'filter targets (any column)…', 'aria-label': 'filter targets', id: 'target-filter', size: 40});
  root.appendChild(h('div', {class: 'toolbar'}, filter,
    h('span', {class: 'muted'}, ' speedup = baseline median / variant median, bootstrap 95% CI; the bar spans 0.25×…64× (log), grey line = 1×, dashed = required speedup. Click a column to sort.')));
  if (!bench.benchmarks.length) {
    root.appendChild(card('Targets', h('p', {class: 'muted'}, 'no stored results (aisp bench run stores each run in the store)')));
    return;
  }
  // One table per GPU type: a target's H100 and H200 results are different measurements.
  const byGpu = new Map();
  for (const b of bench.benchmarks) {
    if (!byGpu.has(b.hardware_key)) byGpu.set(b.hardware_key, []);
    byGpu.get(b.hardware_key).push(b);
  }
  for (const [hw, rows] of byGpu) {
    const model = rows[0].gpu_model || hw;
    const bad = rows.filter(b => badgeTone(b.badge) === 'bad').length;
    root.appendChild(h('section', {class: 'card gpu-group', 'data-gpu': hw},
      h('h2', {id: 'gpu-' + hw}, `${model} (${hw}) — newest result of ${rows.length} target(s)`,
        bad ? h('span', {class: 'bad small'}, ` · ${bad} failing`) : null),
      dataTable(columns, rows, {filterInput: filter, rowClass: b => 'tone-' + (badgeTone(b.badge) || 'none'),
                                initialSort: [0, 'asc']})));
  }
}

function stat(title, value, note, tone, id) {  // tone: good | bad | small
  return h('div', {class: 'stat ' + (tone || ''), id: id || null}, h('div', {class: 'stat-title'}, title),
    h('div', {class: 'stat-value'}, value), h('div', {class: 'stat-note'}, note));
}

function best(b) {
  return b.variants.find(v => v.name === b.best_optimization) || b.variants[0] || null;
}

export const targetHref = (target, run, hw) =>
  `#/target/${encodeURIComponent(target)}?run=${run}` + (hw ? `&hw=${encodeURIComponent(hw)}` : '');

const columns = [
  {label: 'Target', sort: b => b.target, value: b => [
    h('a', {href: targetHref(b.target, b.run.id, b.hardware_key), class: 'target-link'}, b.target),
    b.reason ? h('div', {class: 'reason ' + (badgeTone(b.badge) === 'bad' ? 'bad' : 'muted')}, b.reason) : null]},
  {label: 'Verdict', sort: b => b.badge, value: b => badge(b.badge, b.status)},
  {label: 'Speedup [95% CI]', cls: 'wide', sort: b => best(b)?.speedup ?? null, value: b => {
    const v = best(b);
    return v ? [speedupCell(v.speedup, v.ci_low, v.ci_high, v.minimum_required_speedup),
                b.variants.length > 1 ? h('div', {class: 'muted small'}, 'best: ' + v.name) : null] : '–';
  }},
  {label: 'Baseline', cls: 'num', sort: b => b.baseline.median_ms, value: b => ms(b.baseline.median_ms)},
  {label: 'Best', cls: 'num', sort: b => best(b)?.median_ms ?? null, value: b => ms(best(b)?.median_ms)},
  {label: 'Achieved', cls: 'num', title: 'from the workload\u2019s declared bytes/FLOPs per run',
   sort: b => { const v = best(b); return v ? (v.achieved_tflops ? v.achieved_tflops * 1e12 : v.achieved_gbs ? v.achieved_gbs * 1e9 : null) : null; },
   value: b => {
     const v = best(b);
     if (!v) return '–';
     return v.achieved_tflops ? rate(v.achieved_tflops * 1e12, 'FLOP/s') : rate((v.achieved_gbs || NaN) * 1e9, 'B/s');
   }},
  {label: 'Checks', cls: 'num', sort: b => best(b)?.checks_failed.length ?? null, value: b => checksCell(best(b))},
  {label: 'Run', sort: b => b.run.stamp, value: b => h('a', {href: '#/runs/' + b.run.id, title: b.run.key, class: 'run-link'}, stamp(b.run.stamp).slice(5, 16))},
];

// "2 failed" in red, "6 ok" in green only when checks ran; a target that never got to its checks says so.
export function checksCell(v) {
  if (!v) return h('span', {class: 'muted'}, '–');
  const failed = v.checks_failed.length;
  if (failed) return h('span', {class: 'bad', title: v.checks_failed.map(c => `${c.id} ${c.name}: ${c.detail}`).join('\n')}, `${failed} failed`);
  if (!v.checks_passed) return h('span', {class: 'muted', title: 'no check ran (the variant did not get that far)'}, 'none ran');
  return h('span', {class: 'good', title: 'all passed'}, `${v.checks_passed} ok`);
}
