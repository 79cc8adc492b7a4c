// Two runs side by side: every target × variant with both medians, the speedup of candidate over
// baseline with a bootstrap CI from both runs' raw samples, and the call (faster/slower/same/unclear).
// The default pair is like with like: the newest benchmark run that has an earlier run on the same GPU
// type and timing mode, against that earlier run (`previous_same` from /api/runs).
import {api} from '../api.js';
import {card, dataTable, h} from '../dom.js';
import {changeBadge, fmt, isNum, ms, speedupCell, stamp} from '../format.js';
import {targetHref} from './overview.js';

export function defaultPair(runs) {  // runs newest first
  const candidate = runs.find(r => !r.calibration && r.previous_same !== null && r.previous_same !== undefined);
  return candidate ? {baseline: String(candidate.previous_same), candidate: String(candidate.id)} : null;
}

export async function render(root, params) {
  const runs = (await api('runs', {limit: 500})).runs;
  root.appendChild(h('h1', {}, 'Compare two runs'));
  if (runs.length < 1) { root.appendChild(h('p', {class: 'muted'}, 'no runs stored')); return; }
  const fallback = defaultPair(runs);
  const explicit = params.query.get('baseline') || params.query.get('candidate');
  if (!explicit && !fallback) {
    root.appendChild(card(null, h('p', {class: 'muted', id: 'compare-none'},
      'No two benchmark runs share a GPU type and timing mode yet: pick two runs below to compare them anyway.')));
  }
  const baseline = params.query.get('baseline') || (fallback ? fallback.baseline : String(runs[Math.min(1, runs.length - 1)].id));
  const candidate = params.query.get('candidate') || (fallback ? fallback.candidate : String(runs[0].id));
  const select = (id, value) => h('select', {id, 'aria-label': id},
    runs.map(r => h('option', {value: r.id, selected: String(r.id) === value || r.key === value},
      `#${r.id} ${stamp(r.stamp)} · ${r.hardware_key} · ${r.mode} · ${r.label || r.key} (${r.targets})${r.calibration ? ' (A/A)' : ''}`)));
  const a = select('baseline', baseline), b = select('candidate', candidate);
  const go = () => { location.hash = `#/compare?baseline=${a.value}&candidate=${b.value}`; };
  a.addEventListener('change', go);
  b.addEventListener('change', go);
  const swap = h('button', {type: 'button', onclick: () => { location.hash = `#/compare?baseline=${b.value}&candidate=${a.value}`; }}, 'swap');
  root.appendChild(h('div', {class: 'toolbar'}, h('label', {}, 'Baseline run ', a), ' ', h('label', {}, 'Candidate run ', b), ' ', swap));
  if (!explicit && fallback)
    root.appendChild(h('p', {class: 'muted small', id: 'compare-default'},
      'Default: the newest run that has an earlier run on the same GPU and timing mode, against that run.'));

  const cmp = await api('compare', {baseline, candidate});
  const counts = Object.entries(cmp.counts).map(([k, v]) => h('span', {class: 'inline'}, changeBadge(k), ' ', v));
  root.appendChild(card(null,
    h('p', {}, 'Candidate ', h('b', {}, cmp.candidate.key), ` (${cmp.candidate.hardware_key})`, ' vs baseline ', h('b', {}, cmp.baseline.key),
      ` (${cmp.baseline.hardware_key})`, ': ', counts),
    cmp.notes.map(n => h('p', {class: 'warn'}, n)),
    h('p', {class: 'muted'}, cmp.rule)));
  // Targets only one run holds have nothing to compare: counted, listed on request, not mixed in.
  const both = cmp.rows.filter(r => r.in_baseline && r.in_candidate);
  const oneSided = cmp.rows.filter(r => !(r.in_baseline && r.in_candidate));
  const holder = h('div');
  const toggle = h('input', {type: 'checkbox', id: 'show-one-sided'});
  const draw = () => holder.replaceChildren(dataTable(columns(cmp.candidate), toggle.checked ? cmp.rows : both, {
    filterId: 'compare-filter', filterPlaceholder: 'filter targets…', rowClass: r => 'change-' + r.change.replace(/ /g, '_'),
    empty: 'the two runs have no target in common'}));
  toggle.addEventListener('change', draw);
  draw();
  root.appendChild(card('Targets', oneSided.length
    ? h('p', {class: 'muted'}, h('label', {}, toggle, ` also show the ${oneSided.length} row(s) only one run holds`))
    : null, holder));
}

const columns = candidate => [
  {label: 'Target', sort: r => r.target, value: r => h('a', {href: targetHref(r.target, candidate.id, candidate.hardware_key)}, r.target)},
  {label: 'Variant', sort: r => r.variant, value: r => r.variant},
  {label: 'Baseline run', cls: 'num', sort: r => r.baseline_ms, value: r => ciMs(r.baseline_ms, r.baseline_low_ms, r.baseline_high_ms)},
  {label: 'Candidate run', cls: 'num', sort: r => r.candidate_ms, value: r => ciMs(r.candidate_ms, r.candidate_low_ms, r.candidate_high_ms)},
  {label: 'Ratio', cls: 'num', sort: r => r.ratio, title: 'candidate / baseline median: below 1 is faster', value: r => fmt(r.ratio, 4)},
  {label: 'Speedup [95% CI]', cls: 'wide', sort: r => r.speedup, title: 'bar: 0.8× … 1.25× (log); the dashed line is the 1.05 band edge',
   value: r => speedupCell(r.speedup, r.ci_low, r.ci_high, 1.05, [0.8, 1.25])},
  {label: 'p', cls: 'num', sort: r => r.p_value, title: 'Mann-Whitney U over both runs\u2019 samples', value: r => (isNum(r.p_value) ? fmt(r.p_value, 2) : '–')},
  {label: 'CIs', title: 'do the two medians\u2019 95% CIs overlap?', value: r => (r.ci_overlap === null ? '' : r.ci_overlap ? 'overlap' : 'apart')},
  {label: 'Change', sort: r => r.change, value: r => changeBadge(r.change)},
];

function ciMs(v, lo, hi) {
  if (!isNum(v)) return '–';
  return h('span', {title: `median 95% CI ${ms(lo)} – ${ms(hi)}`}, ms(v));
}
