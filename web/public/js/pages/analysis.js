// The analysis engine's views of one run (the same numbers as `aisp bench analyze|whatif|cost|...`):
// Pareto frontier, roofline, leaderboards, recommendations, a what-if query, cost, power, stacking, scaling.
import {api} from '../api.js';
import {card, h, table} from '../dom.js';
import {fmt, isNum, ms, pct, rate, speed, speedupCell, stamp} from '../format.js';
import {palette, pointChart} from '../charts.js';

export async function render(root, params) {
  const run = params.query.get('run') || undefined;
  const runs = (await api('runs', {limit: 500, calibration: 0})).runs;
  root.appendChild(h('h1', {}, 'Analysis'));
  const picker = h('select', {id: 'analysis-run', 'aria-label': 'run'},
    runs.map(r => h('option', {value: r.id, selected: String(r.id) === run}, `#${r.id} ${stamp(r.stamp)} · ${r.hardware_key} · ${r.label || r.key}`)));
  picker.addEventListener('change', () => { location.hash = `#/analysis?run=${picker.value}`; });
  root.appendChild(h('div', {class: 'toolbar'}, h('label', {}, 'Run: ', picker)));

  const sections = [
    ['Pareto: speedup vs memory saving', () => pareto(run)],
    ['Roofline', () => roofline(run)],
    ['Leaderboards', () => leaderboards(run)],
    ['Recommendations', () => recommendations(run)],
    ['What-if: which variants fit a budget', () => whatif(run)],
    ['Cost per operation', () => cost(run)],
    ['Power and energy', () => power(run)],
    ['Technique stacking', () => stacking(run)],
    ['Scaling with workload size', () => scaling(run)],
  ];
  // Each section loads on its own: one analysis failing (e.g. no price for this GPU) leaves the rest.
  await Promise.all(sections.map(async ([title, fn]) => {
    const box = card(title, h('p', {class: 'muted'}, 'loading…'));
    root.appendChild(box);
    try {
      const content = await fn();
      box.replaceChildren(h('h2', {}, title), ...content);
    } catch (e) {
      box.replaceChildren(h('h2', {}, title), h('p', {class: 'error'}, e.message));
    }
  }));
}

const notes = list => (list || []).map(n => h('p', {class: 'muted'}, n));
const source = r => h('p', {class: 'muted small'}, r.source + (r.capabilities ? ` · ceilings: ${r.capabilities}` : ''));

async function pareto(run) {
  const r = await api('analysis/pareto', {run});
  const el = h('div', {class: 'chart', id: 'chart-pareto'});
  const pts = r.data.filter(p => isNum(p.speedup));
  const groups = [
    {label: 'on the frontier', color: palette[2], points: pts.filter(p => p.on_frontier).map(p => ({x: p.speedup, y: p.memory_savings_pct ?? 0, text: `${p.target} ${p.variant}`}))},
    {label: 'dominated', color: '#adb5bd', points: pts.filter(p => !p.on_frontier).map(p => ({x: p.speedup, y: p.memory_savings_pct ?? 0, text: `${p.target} ${p.variant}`}))},
  ];
  const out = [el, table([
    {label: 'Target', value: p => p.target}, {label: 'Variant', value: p => p.variant},
    {label: 'Speedup', cls: 'num', value: p => speed(p.speedup)}, {label: 'Memory saving', cls: 'num', value: p => pct(p.memory_savings_pct)},
    {label: 'Peak MiB', cls: 'num', value: p => fmt(p.peak_mb, 4)}, {label: 'Frontier', value: p => (p.on_frontier ? 'yes' : '')},
  ], r.data), source(r)];
  queueMicrotask(() => pointChart(el, {groups, xLabel: 'speedup (×, log)', yLabel: 'memory saving (%)', xLog: true}));
  return out;
}

async function roofline(run) {
  const r = await api('roofline', {run});
  const el = h('div', {class: 'chart', id: 'chart-roofline'});
  const compute = r.points.filter(p => isNum(p.arithmetic_intensity) && isNum(p.flops_per_s) && p.arithmetic_intensity > 0);
  const memory = r.points.filter(p => !(isNum(p.arithmetic_intensity) && p.arithmetic_intensity > 0) && isNum(p.bytes_per_s));
  const groups = [
    {label: 'baselines', color: palette[1], points: compute.filter(p => p.baseline).map(p => ({x: p.arithmetic_intensity, y: p.flops_per_s / 1e12, text: `${p.target} baseline`}))},
    {label: 'optimized', color: palette[0], points: compute.filter(p => !p.baseline).map(p => ({x: p.arithmetic_intensity, y: p.flops_per_s / 1e12, text: `${p.target} ${p.variant}`}))},
  ];
  const ais = compute.map(p => p.arithmetic_intensity);
  const lines = [];
  const lo = ais.length ? Math.min(...ais) / 8 : 0.1, hi = ais.length ? Math.max(...ais) * 8 : 100;
  Object.entries(r.ceilings).forEach(([precision, c], i) => {
    if (!isNum(c.dram_bytes_per_s) || !isNum(c.flops_per_s)) return;
    const ridge = c.flops_per_s / c.dram_bytes_per_s;
    const xs = [Math.min(lo, ridge / 4), ridge, Math.max(hi, ridge * 4)];
    lines.push({label: `${precision} roof (${c.measured_compute ? 'measured' : 'computed'})`, color: ['#495057', '#868e96', '#adb5bd'][i % 3],
                xs, ys: xs.map(x => Math.min(c.flops_per_s, c.dram_bytes_per_s * x) / 1e12), dash: c.measured_compute ? undefined : [6, 4]});
  });
  const out = [];
  if (compute.length) {
    out.push(el);
    queueMicrotask(() => pointChart(el, {groups, lines, xLabel: 'arithmetic intensity (FLOP per DRAM byte, log)',
                                         yLabel: 'achieved TFLOP/s (log)', xLog: true, yLog: true}));
  } else {
    out.push(h('p', {class: 'muted'}, 'no variant in this run declares FLOPs: nothing to place on the compute roofline'));
  }
  out.push(h('h3', {}, 'Ceilings'), table([
    {label: 'Precision', value: ([p]) => p},
    {label: 'DRAM', cls: 'num', value: ([, c]) => rate(c.dram_bytes_per_s, 'B/s')},
    {label: 'source', value: ([, c]) => c.bandwidth_source || '–'},
    {label: 'Compute', cls: 'num', value: ([, c]) => rate(c.flops_per_s, 'FLOP/s')},
    {label: 'source', value: ([, c]) => c.compute_source || '–'},
  ], Object.entries(r.ceilings)));
  out.push(h('h3', {}, 'Every variant: achieved rate and % of the attainable roof at its intensity'), table([
    {label: 'Target', value: p => h('a', {href: '#/target/' + encodeURIComponent(p.target)}, p.target)},
    {label: 'Variant', value: p => p.variant}, {label: 'Median', cls: 'num', value: p => ms(p.median_ms)},
    {label: 'DRAM rate', cls: 'num', value: p => rate(p.bytes_per_s, 'B/s')},
    {label: 'FLOP rate', cls: 'num', value: p => rate(p.flops_per_s, 'FLOP/s')},
    {label: 'FLOP/byte', cls: 'num', value: p => fmt(p.arithmetic_intensity, 3)},
    {label: '% of roof', cls: 'wide', value: p => roofBar(p.roofline_pct)},
    {label: 'Bound', value: p => p.bound || '–'},
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
  const board = (title, entries) => [h('h3', {}, title), table([
    {label: '#', cls: 'num', value: e => entries.indexOf(e) + 1},
    {label: 'Target', value: e => e.target}, {label: 'Variant', value: e => e.variant},
    {label: 'Value', cls: 'wide', value: e => (e.unit === 'x' || e.unit === '×'
      ? speedupCell(e.value, e.low, e.high) : `${fmt(e.value, 4)} ${e.unit}`)},
    {label: 'Detail', value: e => e.detail},
  ], entries)];
  return [...board('Speed (ranked by the CI\u2019s lower end)', r.data.speed), ...board('Memory saving', r.data.memory),
          ...board('Throughput', r.data.throughput), ...board('Roofline', r.data.roofline),
          r.data.excluded.length ? h('details', {}, h('summary', {}, `${r.data.excluded.length} excluded`), h('ul', {}, r.data.excluded.map(x => h('li', {}, x)))) : null,
          source(r)];
}

async function recommendations(run) {
  const r = await api('analysis/recommendations', {run});
  return [table([{label: 'Goal', value: x => x.goal}, {label: 'Target', value: x => x.target},
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
        h('ul', {}, r.data.best_per_target.map(x => h('li', {}, x))),
        table([{label: 'Target', value: x => x.target}, {label: 'Variant', value: x => x.variant},
               {label: 'Median', cls: 'num', value: x => ms(x.median_ms)}, {label: 'p99', cls: 'num', value: x => ms(x.p99_ms)},
               {label: 'Peak MiB', cls: 'num', value: x => fmt(x.peak_mb, 4)},
               {label: 'Fits', value: x => (x.fits ? 'yes' : x.violations.join('; '))}],
              [...r.data.fits, ...r.data.rejected]));
    } catch (e) {
      result.replaceChildren(h('p', {class: 'error'}, e.message));
    }
  };
  const form = h('form', {class: 'toolbar', onsubmit: e => { e.preventDefault(); go(); }},
    h('label', {}, 'max memory ', vram), ' ', h('label', {}, 'max p99 latency ', latency), ' ', h('button', {type: 'submit'}, 'ask'));
  go();
  return [form, result];
}

async function cost(run) {
  const r = await api('analysis/cost', {run});
  const d = r.data;
  return [h('p', {}, `${d.gpu} at $${fmt(d.usd_per_hour, 4)}/GPU-hour (${d.rate_source}); measured on ${d.measured_on}`),
    table([{label: 'Target', value: x => x.target}, {label: 'Variant', value: x => x.variant},
           {label: 'Median', cls: 'num', value: x => ms(x.median_ms)},
           {label: '$ per 1M runs', cls: 'num', value: x => fmt(x.usd_per_million_ops, 4)},
           {label: 'baseline $ per 1M', cls: 'num', value: x => fmt(x.baseline_usd_per_million_ops, 4)},
           {label: 'Saving', cls: 'num', value: x => pct(x.saving_pct)}], d.rows), ...notes(d.notes), source(r)];
}

async function power(run) {
  const r = await api('analysis/power', {run});
  const d = r.data;
  if (!d.any_energy) return [h('p', {class: 'muted'}, 'no energy was recorded in this run'), ...notes(d.notes), source(r)];
  return [table([{label: 'Target', value: x => x.target}, {label: 'Variant', value: x => x.variant},
                 {label: 'J per run', cls: 'num', value: x => fmt(x.energy.joules_per_run, 4)},
                 {label: 'Avg W', cls: 'num', value: x => fmt(x.energy.avg_power_w, 4)},
                 {label: 'FLOP/J', cls: 'num', value: x => fmt(x.flop_per_joule, 3)},
                 {label: 'Energy saving', cls: 'num', value: x => pct(x.energy_saving_pct)}], d.rows), ...notes(d.notes), source(r)];
}

async function stacking(run) {
  const r = await api('analysis/stacking', {run});
  const d = r.data;
  return [table([{label: 'Technique A', value: c => c.a}, {label: 'Technique B', value: c => c.b},
                 {label: 'State', value: c => c.state}, {label: 'Best speedup', cls: 'num', value: c => speed(c.best_speedup)},
                 {label: 'Variants / reason', value: c => c.reason || c.variants.join(', ')}], d.cells),
          d.untagged.length ? h('p', {class: 'muted'}, 'untagged: ' + d.untagged.join(', ')) : null, ...notes(d.notes), source(r)];
}

async function scaling(run) {
  const r = await api('analysis/scaling', {run});
  const d = r.data;
  return [table([{label: 'Target', value: s => s.target}, {label: 'Variant', value: s => s.variant}, {label: 'Axis', value: s => s.axis},
                 {label: 'Points', cls: 'num', value: s => s.points.length},
                 {label: 'Speedup per doubling', cls: 'num', value: s => fmt(s.speedup_per_doubling, 3)},
                 {label: 'Trend', value: s => s.trend}], d.series, {empty: 'no target was measured at more than one workload size'}),
          d.single_point.length ? h('p', {class: 'muted'}, `${d.single_point.length} measured at one size only`) : null,
          ...notes(d.notes), source(r)];
}
