// The analysis engine's views of one run (the same numbers as `aisp bench analyze|whatif|cost|...`):
// Pareto frontier, roofline, leaderboards, recommendations, a what-if query, cost, power, stacking,
// scaling. One section each, with an anchor (#/analysis?run=&section=<key>) and a table of contents;
// long tables fold away behind their row count, so the page is a few screens, not twenty.
import {api} from '../api.js';
import {card, dataTable, h} from '../dom.js';
import {fmt, isNum, ms, pct, plain, rate, speed, speedupCell, stamp, withUnit} from '../format.js';
import {palette, pointChart} from '../charts.js';

const SECTIONS = [
  ['pareto', 'Pareto: speedup vs memory saving', run => pareto(run)],
  ['roofline', 'Roofline', run => roofline(run)],
  ['leaderboards', 'Leaderboards', run => leaderboards(run)],
  ['recommendations', 'Recommendations', run => recommendations(run)],
  ['whatif', 'What-if: which variants fit a budget', run => whatif(run)],
  ['cost', 'Cost per operation', run => cost(run)],
  ['power', 'Power and energy', run => power(run)],
  ['stacking', 'Technique stacking', run => stacking(run)],
  ['scaling', 'Scaling with workload size', run => scaling(run)],
];
// Distinct colours for the roofs of different precisions (the points use the palette).
const ROOF_COLORS = ['#c92a2a', '#1971c2', '#2b8a3e', '#e67700', '#862e9c', '#0c8599', '#5f3dc4', '#a61e4d'];

export async function render(root, params) {
  const run = params.query.get('run') || undefined;
  const section = params.query.get('section');
  const runs = (await api('runs', {limit: 500, calibration: 0})).runs;
  root.appendChild(h('h1', {}, 'Analysis'));
  const picker = h('select', {id: 'analysis-run', 'aria-label': 'run'},
    runs.map(r => h('option', {value: r.id, selected: String(r.id) === run}, `#${r.id} ${stamp(r.stamp)} · ${r.hardware_key} · ${r.label || r.key} (${r.targets} targets)`)));
  picker.addEventListener('change', () => { location.hash = `#/analysis?run=${picker.value}`; });
  root.appendChild(h('div', {class: 'toolbar'}, h('label', {}, 'Run: ', picker)));
  const runId = run || picker.value;
  const href = key => `#/analysis?run=${runId}&section=${key}`;
  // A click on a contents entry scrolls there and updates the address without re-rendering the page.
  const jump = key => e => {
    e.preventDefault();
    history.replaceState(null, '', href(key));
    document.getElementById('sec-' + key)?.scrollIntoView({block: 'start'});
  };
  root.appendChild(h('nav', {class: 'toc', id: 'analysis-toc'}, SECTIONS.map(([key, title]) =>
    h('a', {href: href(key), onclick: jump(key)}, title.split(':')[0]))));

  // Each section loads on its own: one analysis failing leaves the rest.
  const boxes = SECTIONS.map(([key, title]) => {
    const heading = () => h('h2', {}, title, h('a', {class: 'anchor', href: href(key), onclick: jump(key), title: 'link to this section'}, '#'));
    const box = h('section', {class: 'card analysis-section', id: 'sec-' + key}, heading(), h('p', {class: 'muted'}, 'loading…'));
    root.appendChild(box);
    return {key, box, heading};
  });
  await Promise.all(SECTIONS.map(async ([key, , fn], i) => {
    const {box, heading} = boxes[i];
    try {
      box.replaceChildren(heading(), ...(await fn(run)).filter(x => x !== null && x !== undefined));
    } catch (e) {
      box.replaceChildren(heading(), h('p', {class: 'error'}, e.message));
    }
  }));
  if (section) document.getElementById('sec-' + section)?.scrollIntoView({block: 'start'});
}

const notes = list => (list || []).map(n => h('p', {class: 'muted'}, n));
const source = r => h('p', {class: 'muted small'}, r.source + (r.capabilities ? ` · measured ceilings: ${r.capabilities}` : ''));
// A table, folded behind its row count when it is long.
function folded(label, columns, rows, opts = {}) {
  const t = dataTable(columns, rows, {filterId: rows.length > 12 ? '' : undefined, ...opts});
  return rows.length > 12 ? h('details', {class: 'more'}, h('summary', {}, `${label} (${rows.length} rows)`), t) : t;
}

async function pareto(run) {
  const r = await api('analysis/pareto', {run});
  const el = h('div', {class: 'chart', id: 'chart-pareto'});
  const pts = r.data.filter(p => isNum(p.speedup));
  const point = p => ({x: p.speedup, y: p.memory_savings_pct ?? 0, text: `${p.target} ${p.variant}`});
  const groups = [
    {label: 'on the frontier', color: palette[2], points: pts.filter(p => p.on_frontier).map(point)},
    {label: 'dominated', color: '#adb5bd', points: pts.filter(p => !p.on_frontier).map(point)},
  ];
  queueMicrotask(() => pointChart(el, {groups, xLabel: 'speedup (log)', yLabel: 'memory saving', xLog: true,
                                       xFormat: v => plain(v) + '×', yFormat: v => fmt(v, 3) + ' %'}));
  return [h('p', {class: 'muted small'}, 'Hover a point for its name. Frontier points are green.'), el,
    folded('every variant', [
      {label: 'Target', sort: p => p.target, value: p => p.target}, {label: 'Variant', sort: p => p.variant, value: p => p.variant},
      {label: 'Speedup', cls: 'num', sort: p => p.speedup, value: p => speed(p.speedup)},
      {label: 'Memory saving', cls: 'num', sort: p => p.memory_savings_pct, value: p => pct(p.memory_savings_pct)},
      {label: 'Peak memory', cls: 'num', sort: p => p.peak_mb, value: p => (isNum(p.peak_mb) ? rate(p.peak_mb * 2 ** 20, 'B') : '–')},
      {label: 'Frontier', sort: p => (p.on_frontier ? 0 : 1), value: p => (p.on_frontier ? 'yes' : '')},
    ], r.data), source(r)];
}

async function roofline(run) {
  const r = await api('roofline', {run});
  const el = h('div', {class: 'chart', id: 'chart-roofline'});
  const compute = r.points.filter(p => isNum(p.arithmetic_intensity) && isNum(p.flops_per_s) && p.arithmetic_intensity > 0);
  const memory = r.points.filter(p => !(isNum(p.arithmetic_intensity) && p.arithmetic_intensity > 0) && isNum(p.bytes_per_s));
  const groups = [
    {label: 'baselines', color: palette[1], points: compute.filter(p => p.baseline).map(p => ({x: p.arithmetic_intensity, y: p.flops_per_s, text: `${p.target} baseline`}))},
    {label: 'optimized', color: palette[0], points: compute.filter(p => !p.baseline).map(p => ({x: p.arithmetic_intensity, y: p.flops_per_s, text: `${p.target} ${p.variant}`}))},
  ];
  const ais = compute.map(p => p.arithmetic_intensity);
  const lo = ais.length ? Math.min(...ais) / 8 : 0.1, hi = ais.length ? Math.max(...ais) * 8 : 100;
  const ceilings = Object.entries(r.ceilings).filter(([, c]) => isNum(c.dram_bytes_per_s) && isNum(c.flops_per_s));
  const color = {};
  const lines = ceilings.map(([precision, c], i) => {
    color[precision] = ROOF_COLORS[i % ROOF_COLORS.length];
    const ridge = c.flops_per_s / c.dram_bytes_per_s;
    const xs = [Math.min(lo, ridge / 4), ridge, Math.max(hi, ridge * 4)];
    const measured = c.measured_compute && c.measured_bandwidth ? 'measured' : c.measured_compute || c.measured_bandwidth ? 'partly measured' : 'computed';
    return {label: `${precision} roof (${measured})`, name: `${precision}: ${rate(c.flops_per_s, 'FLOP/s', 3)} · ${rate(c.dram_bytes_per_s, 'B/s', 3)} (${measured})`,
            color: color[precision], xs, ys: xs.map(x => Math.min(c.flops_per_s, c.dram_bytes_per_s * x)),
            dash: c.measured_compute ? undefined : [6, 4]};
  });
  const out = [];
  if (compute.length) {
    out.push(h('p', {class: 'muted small'}, 'Each precision\u2019s roof in its own colour, named at its right end: solid when its compute ceiling was measured by `aisp hw`, dashed when computed from device properties. Hover a point for its name.'), el);
    queueMicrotask(() => pointChart(el, {groups, lines, xLabel: 'arithmetic intensity (FLOP per DRAM byte, log)',
                                         yLabel: 'achieved FLOP/s (log)', xLog: true, yLog: true,
                                         xFormat: v => plain(v), yFormat: v => rate(v, 'FLOP/s', 3)}));
  } else {
    out.push(h('p', {class: 'muted'}, 'no variant in this run declares FLOPs: nothing to place on the compute roofline'));
  }
  out.push(h('h3', {}, 'Ceilings'), dataTable([
    {label: 'Precision', value: ([p]) => [h('span', {class: 'roof-key', style: {borderTopColor: color[p] || '#adb5bd'}}), p]},
    {label: 'DRAM', cls: 'num', value: ([, c]) => rate(c.dram_bytes_per_s, 'B/s')},
    {label: 'source', value: ([, c]) => h('span', {class: 'small ' + (c.measured_bandwidth ? 'good' : 'muted')}, c.bandwidth_source || '–')},
    {label: 'Compute', cls: 'num', value: ([, c]) => rate(c.flops_per_s, 'FLOP/s')},
    {label: 'source', value: ([, c]) => h('span', {class: 'small ' + (c.measured_compute ? 'good' : 'muted')}, c.compute_source || '–')},
  ], Object.entries(r.ceilings)));
  out.push(folded('every variant: achieved rate and % of the attainable roof at its intensity', [
    {label: 'Target', sort: p => p.target, value: p => h('a', {href: '#/target/' + encodeURIComponent(p.target)}, p.target)},
    {label: 'Variant', sort: p => p.variant, value: p => p.variant},
    {label: 'Median', cls: 'num', sort: p => p.median_ms, value: p => ms(p.median_ms)},
    {label: 'DRAM rate', cls: 'num', sort: p => p.bytes_per_s, value: p => rate(p.bytes_per_s, 'B/s')},
    {label: 'FLOP rate', cls: 'num', sort: p => p.flops_per_s, value: p => rate(p.flops_per_s, 'FLOP/s')},
    {label: 'FLOP/byte', cls: 'num', sort: p => p.arithmetic_intensity, value: p => plain(p.arithmetic_intensity)},
    {label: '% of roof', cls: 'wide', sort: p => p.roofline_pct, value: p => roofBar(p.roofline_pct)},
    {label: 'Bound', sort: p => p.bound, value: p => p.bound || '–'},
  ], [...compute, ...memory]));
  out.push(source(r));
  return out;
}

function roofBar(v) {
  if (!isNum(v)) return '–';
  return h('span', {class: 'roofbar', title: fmt(v, 3) + ' % of the attainable roof'},
    h('span', {class: 'fill', style: {width: Math.min(100, Math.max(0, v)) + '%'}}), h('span', {class: 'label'}, fmt(v, 3) + ' %'));
}

async function leaderboards(run) {
  const r = await api('analysis/leaderboards', {run, top: 10});
  const board = (title, entries) => [h('h3', {}, title), dataTable([
    {label: '#', cls: 'num', value: e => entries.indexOf(e) + 1},
    {label: 'Target', value: e => e.target}, {label: 'Variant', value: e => e.variant},
    {label: 'Value', cls: 'wide', value: e => (e.unit === 'x' || e.unit === '×'
      ? speedupCell(e.value, e.low, e.high) : withUnit(e.value, e.unit))},
    {label: 'Detail', value: e => e.detail},
  ], entries)];
  return [...board('Speed (ranked by the CI\u2019s lower end)', r.data.speed), ...board('Memory saving', r.data.memory),
          ...board('Throughput', r.data.throughput), ...board('Roofline', r.data.roofline),
          r.data.excluded.length ? h('details', {class: 'more'}, h('summary', {}, `${r.data.excluded.length} excluded`), h('ul', {}, r.data.excluded.map(x => h('li', {}, x)))) : null,
          source(r)];
}

async function recommendations(run) {
  const r = await api('analysis/recommendations', {run});
  return [folded('recommendations', [{label: 'Goal', sort: x => x.goal, value: x => x.goal}, {label: 'Target', sort: x => x.target, value: x => x.target},
                 {label: 'Pick', value: x => x.variant}, {label: 'Why', value: x => x.why}], r.data), source(r)];
}

async function whatif(run) {
  const vram = h('input', {type: 'number', min: 0, step: 'any', placeholder: 'GiB', id: 'whatif-vram', size: 6});
  const latency = h('input', {type: 'number', min: 0, step: 'any', placeholder: 'ms', id: 'whatif-latency', size: 6});
  const result = h('div');
  const go = async () => {
    result.replaceChildren(h('p', {class: 'muted'}, 'asking…'));
    try {
      const r = await api('analysis/whatif', {run, vram: vram.value, latency: latency.value});
      result.replaceChildren(
        h('p', {}, `${r.data.fits.length} variant(s) fit, ${r.data.rejected.length} rejected`),
        folded('best per target', [{label: 'Best per target', value: x => x}], r.data.best_per_target),
        folded('every variant', [{label: 'Target', sort: x => x.target, value: x => x.target}, {label: 'Variant', value: x => x.variant},
               {label: 'Median', cls: 'num', sort: x => x.median_ms, value: x => ms(x.median_ms)},
               {label: 'p99', cls: 'num', sort: x => x.p99_ms, value: x => ms(x.p99_ms)},
               {label: 'Peak memory', cls: 'num', sort: x => x.peak_mb, value: x => (isNum(x.peak_mb) ? rate(x.peak_mb * 2 ** 20, 'B') : '–')},
               {label: 'Fits', sort: x => (x.fits ? 0 : 1), value: x => (x.fits ? 'yes' : x.violations.join('; '))}],
              [...r.data.fits, ...r.data.rejected]));
    } catch (e) {
      result.replaceChildren(h('p', {class: 'error'}, e.message));
    }
  };
  const form = h('form', {class: 'toolbar', onsubmit: e => { e.preventDefault(); go(); }},
    h('label', {}, 'max memory ', vram, ' GiB'), ' ', h('label', {}, 'max p99 latency ', latency, ' ms'), ' ', h('button', {type: 'submit'}, 'ask'));
  go();
  return [form, result];
}

async function cost(run, usdPerHour, nested = false) {
  const r = await api('analysis/cost', {run, rate: usdPerHour});
  const d = r.data;
  if (d.priced === false) {
    // No price for this GPU: say so plainly and let the reader supply one for this view.
    const input = h('input', {type: 'number', min: 0, step: 'any', placeholder: 'USD per GPU-hour', id: 'cost-rate', size: 10});
    const holder = h('div');
    const form = h('form', {class: 'toolbar', onsubmit: async e => {
      e.preventDefault();
      try {
        holder.replaceChildren(...(await cost(run, input.value, true)).filter(Boolean));
      } catch (err) {
        holder.replaceChildren(h('p', {class: 'error'}, err.message));
      }
    }}, h('label', {}, 'price this run at ', input, ' USD per GPU-hour'), h('button', {type: 'submit'}, 'compute'));
    return [h('div', {class: 'no-price', id: 'cost-no-price', title: d.message},
              h('p', {}, h('b', {}, `No price for ${d.gpu || 'this GPU'}`), ` in ${d.prices_file}: add it there (with its public source), or price this run below.`),
              h('p', {class: 'muted small'}, `Priced GPUs: ${d.known.join(', ')} (${d.prices_file}).`)), form, holder, source(r)];
  }
  return [h('p', {}, `${d.gpu} at $${fmt(d.usd_per_hour, 4)}/GPU-hour (${d.rate_source}); measured on ${d.measured_on}`),
    folded('cost of every variant', [{label: 'Target', sort: x => x.target, value: x => x.target}, {label: 'Variant', value: x => x.variant},
           {label: 'Median', cls: 'num', sort: x => x.median_ms, value: x => ms(x.median_ms)},
           {label: '$ per 1M runs', cls: 'num', sort: x => x.usd_per_million_ops, value: x => fmt(x.usd_per_million_ops, 4)},
           {label: 'baseline $ per 1M', cls: 'num', sort: x => x.baseline_usd_per_million_ops, value: x => fmt(x.baseline_usd_per_million_ops, 4)},
           {label: 'Saving', cls: 'num', sort: x => x.saving_pct, value: x => pct(x.saving_pct)}], d.rows), ...notes(d.notes), nested ? null : source(r)];
}

async function power(run) {
  const r = await api('analysis/power', {run});
  const d = r.data;
  if (!d.any_energy) return [h('p', {class: 'muted'}, 'no energy was recorded in this run'), ...notes(d.notes), source(r)];
  return [folded('energy of every variant', [{label: 'Target', sort: x => x.target, value: x => x.target}, {label: 'Variant', value: x => x.variant},
                 {label: 'Energy per run', cls: 'num', sort: x => x.energy.joules_per_run, value: x => withJoules(x.energy.joules_per_run)},
                 {label: 'Avg power', cls: 'num', sort: x => x.energy.avg_power_w, value: x => (isNum(x.energy.avg_power_w) ? fmt(x.energy.avg_power_w, 4) + ' W' : '–')},
                 {label: 'FLOP/J', cls: 'num', sort: x => x.flop_per_joule, value: x => rate(x.flop_per_joule, 'FLOP/J', 3)},
                 {label: 'Energy saving', cls: 'num', sort: x => x.energy_saving_pct, value: x => pct(x.energy_saving_pct)}], d.rows), ...notes(d.notes), source(r)];
}

function withJoules(j) {
  if (!isNum(j)) return '–';
  if (j >= 1) return fmt(j, 4) + ' J';
  if (j >= 1e-3) return fmt(j * 1e3, 4) + ' mJ';
  return fmt(j * 1e6, 4) + ' µJ';
}

async function stacking(run) {
  const r = await api('analysis/stacking', {run});
  const d = r.data;
  return [folded('technique pairs', [{label: 'Technique A', sort: c => c.a, value: c => c.a}, {label: 'Technique B', sort: c => c.b, value: c => c.b},
                 {label: 'State', sort: c => c.state, value: c => c.state}, {label: 'Best speedup', cls: 'num', sort: c => c.best_speedup, value: c => speed(c.best_speedup)},
                 {label: 'Variants / reason', value: c => c.reason || c.variants.join(', ')}], d.cells),
          d.untagged.length ? h('p', {class: 'muted'}, 'untagged: ' + d.untagged.join(', ')) : null, ...notes(d.notes), source(r)];
}

async function scaling(run) {
  const r = await api('analysis/scaling', {run});
  const d = r.data;
  return [dataTable([{label: 'Target', value: s => s.target}, {label: 'Variant', value: s => s.variant}, {label: 'Axis', value: s => s.axis},
                 {label: 'Points', cls: 'num', value: s => s.points.length},
                 {label: 'Speedup per doubling', cls: 'num', value: s => fmt(s.speedup_per_doubling, 3)},
                 {label: 'Trend', value: s => s.trend}], d.series, {empty: 'no target was measured at more than one workload size'}),
          d.single_point.length ? h('p', {class: 'muted'}, `${d.single_point.length} measured at one size only`) : null,
          ...notes(d.notes), source(r)];
}
