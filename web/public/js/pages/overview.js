// Overview: the newest result of every target per GPU, with its verdict and speedup CI.
import {api} from '../api.js';
import {card, h, table} from '../dom.js';
import {badge, fmt, ms, rate, speedupCell, stamp} from '../format.js';

export async function render(root) {
  const [summary, bench] = await Promise.all([api('summary'), api('benchmarks')]);
  root.appendChild(h('h1', {}, 'Overview'));
  root.appendChild(h('div', {class: 'cards'},
    stat('Targets', summary.targets, `${summary.latest_results} newest results across ${summary.hardware_keys.length} GPU type(s)`),
    stat('Runs', summary.runs, `${summary.complete_runs} complete · ${summary.calibration_runs} A/A calibration`),
    stat('Geomean best speedup', summary.geomean_best_speedup ? fmt(summary.geomean_best_speedup, 4) + '×' : '–',
         `over ${summary.geomean_over} succeeded target(s)`),
    stat('Regressions', summary.regressions.length, 'vs stored expectations', summary.regressions.length ? 'bad' : 'good'),
    stat('Verdicts', Object.entries(summary.by_badge).map(([k, v]) => h('span', {class: 'inline'}, badge(k), ' ', v)), ''),
    stat('Latest run', summary.latest_run ? stamp(summary.latest_run.stamp) : '–',
         summary.latest_run ? `${summary.latest_run.hardware_key} · ${summary.latest_run.mode} · ${summary.latest_run.label || summary.latest_run.key}` : 'no runs stored', 'small')));

  const filter = h('input', {type: 'search', placeholder: 'filter targets…', 'aria-label': 'filter targets', id: 'target-filter'});
  const holder = h('div');
  const draw = () => {
    const q = filter.value.trim().toLowerCase();
    const rows = bench.benchmarks.filter(b => !q || b.target.toLowerCase().includes(q));
    holder.replaceChildren(table(columns, rows, {empty: 'no stored results (aisp bench run stores each run in the store)'}));
  };
  filter.addEventListener('input', draw);
  root.appendChild(card('Targets — newest result per GPU', h('div', {class: 'toolbar'}, filter,
    h('span', {class: 'muted'}, ' speedup = baseline median / variant median, bootstrap 95% CI; the bar spans 0.25×…64× (log), grey line = 1×, dashed = required speedup')), holder));
  draw();
}

function stat(title, value, note, tone) {  // tone: good | bad | small
  return h('div', {class: 'stat ' + (tone || '')}, h('div', {class: 'stat-title'}, title),
    h('div', {class: 'stat-value'}, value), h('div', {class: 'stat-note'}, note));
}

function best(b) {
  return b.variants.find(v => v.name === b.best_optimization) || b.variants[0] || null;
}

const columns = [
  {label: 'Target', value: b => h('a', {href: '#/target/' + encodeURIComponent(b.target), class: 'target-link'}, b.target)},
  {label: 'Verdict', value: b => badge(b.badge, b.error || b.status)},
  {label: 'Best variant', value: b => best(b)?.name || '–'},
  {label: 'Speedup [95% CI]', cls: 'wide', value: b => {
    const v = best(b);
    return v ? speedupCell(v.speedup, v.ci_low, v.ci_high, v.minimum_required_speedup) : '–';
  }},
  {label: 'Baseline', cls: 'num', value: b => ms(b.baseline.median_ms)},
  {label: 'Best', cls: 'num', value: b => ms(best(b)?.median_ms)},
  {label: 'Achieved', cls: 'num', title: 'from the workload\u2019s declared bytes/FLOPs per run',
   value: b => {
     const v = best(b);
     if (!v) return '–';
     return v.achieved_tflops ? rate(v.achieved_tflops * 1e12, 'FLOP/s') : rate((v.achieved_gbs || NaN) * 1e9, 'B/s');
   }},
  {label: 'Checks', cls: 'num', value: b => {
    const v = best(b);
    if (!v) return '–';
    const failed = v.checks_failed.length;
    return h('span', {class: failed ? 'bad' : 'good', title: failed ? v.checks_failed.map(c => `${c.id} ${c.name}: ${c.detail}`).join('\n') : 'all passed'},
      failed ? `${failed} failed` : `${v.checks_passed} ok`);
  }},
  {label: 'GPU', value: b => b.hardware_key},
  {label: 'Run', value: b => h('a', {href: '#/runs/' + b.run.id, title: b.run.key}, stamp(b.run.stamp).slice(5, 16))},
];
