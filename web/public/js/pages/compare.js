// Two runs side by side: every target × variant with both medians, the speedup of candidate over
// baseline with a bootstrap CI from both runs' raw samples, and the call (faster/slower/same/unclear).
import {api} from '../api.js';
import {card, h, table} from '../dom.js';
import {changeBadge, fmt, isNum, ms, speedupCell, stamp} from '../format.js';

export async function render(root, params) {
  const runs = (await api('runs', {limit: 500})).runs;
  root.appendChild(h('h1', {}, 'Compare two runs'));
  if (runs.length < 1) { root.appendChild(h('p', {class: 'muted'}, 'no runs stored')); return; }
  const benchmarkRuns = runs.filter(r => !r.calibration);
  const pick = (name, fallback) => params.query.get(name) || fallback;
  const baseline = pick('baseline', String((benchmarkRuns[1] || benchmarkRuns[0] || runs[0]).id));
  const candidate = pick('candidate', String((benchmarkRuns[0] || runs[0]).id));
  const select = (id, value) => h('select', {id, 'aria-label': id},
    runs.map(r => h('option', {value: r.id, selected: String(r.id) === value || r.key === value},
      `#${r.id} ${stamp(r.stamp)} · ${r.label || r.key}${r.calibration ? ' (A/A)' : ''}`)));
  const a = select('baseline', baseline), b = select('candidate', candidate);
  const go = () => { location.hash = `#/compare?baseline=${a.value}&candidate=${b.value}`; };
  a.addEventListener('change', go);
  b.addEventListener('change', go);
  const swap = h('button', {type: 'button', onclick: () => { location.hash = `#/compare?baseline=${b.value}&candidate=${a.value}`; }}, 'swap');
  root.appendChild(h('div', {class: 'toolbar'}, h('label', {}, 'Baseline run ', a), ' ', h('label', {}, 'Candidate run ', b), ' ', swap));

  const cmp = await api('compare', {baseline, candidate});
  const counts = Object.entries(cmp.counts).map(([k, v]) => h('span', {class: 'inline'}, changeBadge(k), ' ', v));
  root.appendChild(card(null,
    h('p', {}, 'Candidate ', h('b', {}, cmp.candidate.key), ' vs baseline ', h('b', {}, cmp.baseline.key), ': ', counts),
    cmp.notes.map(n => h('p', {class: 'warn'}, n)),
    h('p', {class: 'muted'}, cmp.rule)));
  root.appendChild(card('Targets', table(columns, cmp.rows, {rowClass: r => 'change-' + r.change.replace(/ /g, '_')})));
}

const columns = [
  {label: 'Target', value: r => h('a', {href: '#/target/' + encodeURIComponent(r.target)}, r.target)},
  {label: 'Variant', value: r => r.variant},
  {label: 'Baseline run', cls: 'num', value: r => ciMs(r.baseline_ms, r.baseline_low_ms, r.baseline_high_ms)},
  {label: 'Candidate run', cls: 'num', value: r => ciMs(r.candidate_ms, r.candidate_low_ms, r.candidate_high_ms)},
  {label: 'Ratio', cls: 'num', title: 'candidate / baseline median: below 1 is faster', value: r => fmt(r.ratio, 4)},
  {label: 'Speedup [95% CI]', cls: 'wide', title: 'bar: 0.8× … 1.25× (log); the dashed line is the 1.05 band edge',
   value: r => speedupCell(r.speedup, r.ci_low, r.ci_high, 1.05, [0.8, 1.25])},
  {label: 'p', cls: 'num', title: 'Mann-Whitney U over both runs\u2019 samples', value: r => (isNum(r.p_value) ? fmt(r.p_value, 2) : '–')},
  {label: 'Medians\u2019 CIs', value: r => (r.in_baseline && r.in_candidate ? (r.ci_overlap ? 'overlap' : 'apart') : '')},
  {label: 'Change', value: r => changeBadge(r.change)},
];

function ciMs(v, lo, hi) {
  if (!isNum(v)) return '–';
  return h('span', {title: `median 95% CI ${ms(lo)} – ${ms(hi)}`}, ms(v));
}
