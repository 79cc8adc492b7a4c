// One target: its samples (baseline vs each variant) in one run, and its history across runs with the
// change points the store finds (the same ones `aisp bench history` prints).
import {api, targetPath} from '../api.js';
import {card, dataTable, h, table} from '../dom.js';
import {badge, badgeTone, expectationText, fmt, isNum, ms, pct, speedupCell, stamp} from '../format.js';
import {histogramChart, historyChart, palette, sampleSeriesChart} from '../charts.js';

export async function render(root, params) {
  const id = params.id;
  const runParam = params.query.get('run') || undefined;
  const [result, history] = await Promise.all([api(targetPath(id, 'result'), {run: runParam}), api(targetPath(id, 'history'))]);
  const t = result.target;
  const tone = badgeTone(t.badge);
  root.appendChild(h('h1', {}, t.target, ' ', badge(t.badge, t.status), ' ',
    h('span', {class: 'muted small'}, `${result.run.gpu_model || result.run.hardware_key} · run ${stamp(result.run.stamp)}`)));

  // Why it failed, regressed or missed, on the page (not in a tooltip), with the expectation it missed.
  const best = t.variants.find(v => v.name === t.best_optimization) || t.variants[0];
  const expected = expectationText(t.expectation, best);
  if (t.reason || expected) {
    root.appendChild(h('section', {class: 'card verdict-box tone-' + (tone || 'none'), id: 'verdict-reason'},
      h('p', {}, h('b', {}, `${t.badge} · status ${t.status}`), t.reason ? ': ' + t.reason : ''),
      expected ? h('p', {class: t.expectation.status === 'regression' ? 'bad' : 'muted'},
        `Expectation (${t.expectation.status}): ${expected}`) : null));
  }

  // Runs that hold this target, newest first, to pick which one the samples come from.
  const runs = [];
  for (const r of history.rows) if (!runs.find(x => x.id === r.run.id)) runs.push(r.run);
  runs.reverse();
  const picker = h('select', {id: 'run-picker', 'aria-label': 'run'},
    runs.map(r => h('option', {value: r.id, selected: r.id === result.run.id}, `${stamp(r.stamp)} · ${r.hardware_key} · ${r.key}`)));
  picker.addEventListener('change', () => {
    const r = runs.find(x => String(x.id) === picker.value);
    location.hash = `#/target/${encodeURIComponent(id)}?run=${picker.value}&hw=${encodeURIComponent(r ? r.hardware_key : '')}`;
  });
  root.appendChild(h('div', {class: 'toolbar'}, h('label', {}, 'Run: ', picker),
    h('span', {class: 'muted'}, ` ${result.run.hardware_key} · mode ${t.mode} · goal ${t.goal} · commit ${(result.run.git_commit || '').slice(0, 8)}`),
    h('span', {class: 'muted', id: 'tolerance', title: 'the pair\u2019s output tolerance, used for every comparison of every variant'},
      ` · tolerance ${toleranceText(t.tolerance)}`)));

  const variants = [t.baseline, ...t.variants];
  // The variant the expectation was checked on carries the target's regression, not a green verdict.
  const regressed = t.status === 'failed_regression'
    ? ((t.expectation && t.expectation.variant) || t.best_optimization) : null;
  const columns = variantColumns.map(c => (c.label !== 'Verdict' ? c : {...c, value: v => (v.name === regressed
    ? [badge('REGRESSION', 'below its stored expectation'), h('div', {class: 'muted small'}, `${v.verdict ? v.verdict.toLowerCase() + ' than' : 'vs'} the baseline`)]
    : c.value(v))}));
  root.appendChild(card('Variants in this run', table(columns, variants,
    {rowClass: v => (v.name === 'baseline' ? 'baseline-row' : v.name === regressed || badgeTone(v.verdict) === 'bad' && v.status !== 'succeeded' ? 'tone-bad' : null)})));

  // Charts only from samples that exist: a target that failed before timing gets a sentence, not empty axes.
  const colored = variants.map((v, i) => ({label: v.name, samples: v.samples_ms || [], color: palette[i % palette.length]}))
    .filter(v => v.samples.length > 0);
  const medians = variants.map(v => v.median_ms).filter(isNum);
  const close = medians.length > 1 && Math.max(...medians) / Math.min(...medians) < 1.5;
  if (!colored.length) {
    root.appendChild(card('Sample distributions', h('p', {class: 'muted', id: 'no-samples'},
      'No timing samples in this run: nothing was measured' + (t.reason ? ` (${t.reason})` : '') + '.')));
  } else {
    const hist = h('div', {class: 'chart', id: 'chart-samples'});
    const order = h('div', {class: 'chart', id: 'chart-order'});
    root.appendChild(card('Sample distributions',
      h('p', {class: 'muted'}, close
        ? 'Times per run of every kept sample on one axis: the medians are within 1.5× of each other, so overlap is what decides the verdict.'
        : 'Each variant\u2019s samples as deviation from its own median: the medians differ by more than 1.5×, so this compares noise shapes (the times are in the table and the chart below).'),
      hist, h('h3', {}, 'Samples in timing order (interleaved blocks; log scale)'), order));
    histogramChart(hist, {variants: colored, relative: !close});
    sampleSeriesChart(order, {variants: colored});
  }

  renderHistory(root, history, result.run.hardware_key);
}

const variantColumns = [
  {label: 'Variant', value: v => h('span', {title: v.technique || ''}, v.name)},
  {label: 'Status', value: v => [v.status, v.error ? h('div', {class: 'bad small'}, v.error) : null]},
  {label: 'Verdict', value: v => (v.name === 'baseline' ? h('span', {class: 'muted'}, 'reference') : badge(v.verdict))},
  {label: 'Median', cls: 'num', value: v => ms(v.median_ms)},
  {label: 'p10 – p90', cls: 'num', value: v => `${ms(v.p10_ms)} – ${ms(v.p90_ms)}`},
  {label: 'Noise', cls: 'num', title: 'stdev / mean', value: v => pct(isNum(v.rel_noise) ? v.rel_noise * 100 : NaN, 2)},
  {label: 'n', cls: 'num', value: v => `${v.samples}${v.discarded ? ` (−${v.discarded})` : ''}`},
  {label: 'Speedup [95% CI]', cls: 'wide', value: v => (v.name === 'baseline' ? '' : speedupCell(v.speedup, v.ci_low, v.ci_high, v.minimum_required_speedup))},
  {label: 'p', cls: 'num', title: 'Mann-Whitney U', value: v => (isNum(v.p_value) ? fmt(v.p_value, 2) : '')},
  // Throughput or latency goals: the judged statistic in its unit with its 95% CI (empty for speed/memory).
  {label: 'Goal [95% CI]', cls: 'wide', value: v => goalText(v.goal_metric)},
  {label: 'Peak MiB', cls: 'num', value: v => fmt(v.peak_memory_mb, 4)},
  {label: 'Checks', value: v => {
    const checks = v.checks || [];
    const failed = checks.filter(c => !c.passed);
    // No check ran (the variant failed first): say so, never a green "0 passed".
    if (!checks.length) return h('span', {class: 'muted'}, 'none ran');
    return h('details', {open: failed.length ? true : null}, h('summary', {class: failed.length ? 'bad' : 'good'}, failed.length ? `${failed.length} failed` : `${checks.length} passed`),
      h('ul', {class: 'checks'}, checks.map(c => h('li', {class: c.passed ? 'good' : 'bad'}, `${c.id} ${c.name}: ${c.detail}`))));
  }},
];

function renderHistory(root, history, currentGpu) {
  const rows = history.rows;
  const box = card('History');
  root.appendChild(box);
  if (!rows.length) { box.appendChild(h('p', {class: 'muted'}, 'no runs of this target besides A/A calibration')); return; }
  // One chart per GPU type and timing mode: another GPU is another series, not a level shift.
  const groups = new Map();
  for (const r of rows) {
    const k = `${r.run.hardware_key} · ${r.run.mode}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  // The GPU of the run on screen first.
  const ordered = [...groups].sort(([a], [b]) => (b.startsWith(currentGpu + ' ') ? 1 : 0) - (a.startsWith(currentGpu + ' ') ? 1 : 0));
  for (const [key, grows] of ordered) {
    const runIds = [...new Set(grows.map(r => r.run.id))];
    const labels = runIds.map(id => stamp(grows.find(r => r.run.id === id).run.stamp).slice(5, 16));
    const at = id => runIds.indexOf(id);
    const fill = n => new Array(n).fill(null);
    const base = {label: 'baseline', values: fill(runIds.length), lo: fill(runIds.length), hi: fill(runIds.length), color: palette[0]};
    const byVariant = new Map();
    const markers = [];
    for (const r of grows) {
      const i = at(r.run.id);
      base.values[i] = r.baseline_ms; base.lo[i] = r.baseline_low_ms; base.hi[i] = r.baseline_high_ms;
      if (r.variant) {
        if (!byVariant.has(r.variant)) byVariant.set(r.variant, {label: r.variant, values: fill(runIds.length), lo: fill(runIds.length), hi: fill(runIds.length),
                                                                 sp: fill(runIds.length), splo: fill(runIds.length), sphi: fill(runIds.length),
                                                                 color: palette[(byVariant.size + 1) % palette.length]});
        const s = byVariant.get(r.variant);
        s.values[i] = r.variant_ms; s.lo[i] = r.variant_low_ms; s.hi[i] = r.variant_high_ms;
        s.sp[i] = r.speedup; s.splo[i] = r.ci_low; s.sphi[i] = r.ci_high;
        if (r.variant_change) markers.push({x: i, text: `${r.variant} ${sign(r.variant_change.rel_shift)}`, color: s.color, row: markers.length});
      }
      if (r.baseline_change && !markers.find(m => m.x === i && m.base))
        markers.push({x: i, base: true, text: `baseline ${sign(r.baseline_change.rel_shift)}`, color: palette[0], row: markers.length});
    }
    // A chart only where there is something to draw (a target that never produced a time has none).
    const timeSeries = [base, ...byVariant.values()].filter(s => s.values.some(isNum));
    const speedSeries = [...byVariant.values()].filter(s => s.sp.some(isNum));
    if (!timeSeries.length) {
      box.appendChild(h('h3', {}, key), h('p', {class: 'muted'}, 'no timed result in these runs: nothing to chart'));
      continue;
    }
    if (runIds.length < 2) {  // one point is not a history: the table below has it
      box.appendChild(h('h3', {}, key), h('p', {class: 'muted'}, 'one run on this GPU and mode so far: no history to chart (the row is in the table below)'));
      continue;
    }
    const timeEl = h('div', {class: 'chart history-chart'});
    box.appendChild(h('h3', {}, key, ' — median per run with its 95% CI; dashed lines mark change points'));
    box.appendChild(timeEl);
    historyChart(timeEl, {labels, series: timeSeries, yLabel: 'median per run', markers});
    if (speedSeries.length) {
      const speedEl = h('div', {class: 'chart'});
      box.appendChild(h('h3', {}, key, ' — speedup per run [95% CI]'));
      box.appendChild(speedEl);
      historyChart(speedEl, {labels, yLabel: 'speedup', refLine: 1, height: 220, yFormat: v => fmt(v, 3) + '×',
        series: speedSeries.map(s => ({label: s.label, values: s.sp, lo: s.splo, hi: s.sphi, color: s.color}))});
    }
  }
  box.appendChild(dataTable(historyColumns, [...rows].reverse(), {cls: 'history-table'}));
}

const sign = v => (isNum(v) ? (v > 0 ? '+' : '') + fmt(v * 100, 3) + '%' : '');

const historyColumns = [
  {label: 'Run', sort: r => r.run.stamp, value: r => h('a', {href: `#/runs/${r.run.id}`}, stamp(r.run.stamp))},
  {label: 'Commit', value: r => (r.run.git_commit || '–').slice(0, 8) + (r.run.git_dirty ? '*' : '')},
  {label: 'GPU · mode', sort: r => r.run.hardware_key, value: r => `${r.run.hardware_key} · ${r.run.mode}`},
  {label: 'Variant', sort: r => r.variant, value: r => r.variant || '–'},
  {label: 'Baseline', cls: 'num', sort: r => r.baseline_ms, value: r => ms(r.baseline_ms)},
  {label: 'Variant', cls: 'num', sort: r => r.variant_ms, value: r => ms(r.variant_ms)},
  {label: 'Speedup [95% CI]', cls: 'wide', sort: r => r.speedup, value: r => speedupCell(r.speedup, r.ci_low, r.ci_high)},
  {label: 'Verdict', sort: r => r.badge, value: r => badge(r.badge, r.reason || r.status)},
  {label: 'Change point', value: r => [r.baseline_change ? `baseline ${sign(r.baseline_change.rel_shift)}` : '',
                                       r.variant_change ? ` variant ${sign(r.variant_change.rel_shift)}` : ''].join('') || ''},
];

// "dtype default" or "rtol 1e-05, atol 0.00195 (why)"; runs stored before the field existed say so.
function goalText(g) {
  if (!g || !isNum(g.value)) return '';
  return h('span', {title: g.lower_is_better ? 'lower is better' : 'higher is better'},
    `${g.name}: ${fmt(g.value, 4)} ${g.unit} [${fmt(g.ci_low, 4)}, ${fmt(g.ci_high, 4)}]`);
}

function toleranceText(tol) {
  if (!tol) return 'not recorded';
  const part = v => (typeof v === 'number' && v >= 0) ? String(+v.toPrecision(3)) : 'default';
  if (!(tol.rtol >= 0) && !(tol.atol >= 0)) return 'dtype default';
  return `rtol ${part(tol.rtol)}, atol ${part(tol.atol)}` + (tol.justification ? ` (${tol.justification})` : '');
}
