// Stored runs (paged, newest first) and one run's details.
import {api} from '../api.js';
import {card, h, table} from '../dom.js';
import {badge, badgeTone, ms, shortCommit, speedupCell, stamp} from '../format.js';
import {targetHref} from './overview.js';

const PAGE = 25;

export async function render(root, params) {
  if (params.id) return renderRun(root, params.id);
  const offset = Number(params.query.get('offset') || 0);
  const list = await api('runs', {limit: PAGE, offset});
  root.appendChild(h('h1', {}, 'Runs'));
  root.appendChild(card(`${list.total} stored runs, newest first`, table([
    {label: '#', cls: 'num', value: r => r.id},
    {label: 'Started', value: r => h('a', {href: '#/runs/' + r.id}, stamp(r.stamp))},
    {label: 'Run', value: r => r.key},
    {label: 'Commit', value: r => shortCommit(r.git_commit, r.git_dirty)},
    {label: 'GPU', value: r => r.hardware_key || '–'},
    {label: 'Mode', value: r => r.mode},
    {label: 'Targets', cls: 'num', value: r => r.targets},
    {label: 'Kind', value: r => (r.calibration ? 'A/A calibration' : r.complete ? 'benchmark' : 'INCOMPLETE')},
    {label: '', value: r => (r.previous_same !== null && r.previous_same !== undefined
      // The previous benchmark run on the same GPU and mode (server side, over every stored run).
      ? h('a', {href: `#/compare?baseline=${r.previous_same}&candidate=${r.id}`}, `compare with #${r.previous_same}`) : '')},
  ], list.runs),
  h('div', {class: 'pager'},
    offset > 0 ? h('a', {href: `#/runs?offset=${Math.max(0, offset - PAGE)}`}, '← newer') : null, ' ',
    offset + PAGE < list.total ? h('a', {href: `#/runs?offset=${offset + PAGE}`}, 'older →') : null)));
}

async function renderRun(root, id) {
  const r = await api('runs/' + encodeURIComponent(id));
  const m = r.manifest || {};
  root.appendChild(h('h1', {}, 'Run ', r.run.key));
  const hw = m.hardware || {};
  root.appendChild(card(null, h('dl', {class: 'facts'},
    fact('Started', stamp(r.run.stamp)), fact('GPU', `${hw.gpu_model || r.run.gpu_model || '–'} (${r.run.hardware_key})`),
    fact('Driver / CUDA', `${hw.driver_version || '–'} / ${hw.cuda_version || '–'}`), fact('Mode', r.run.mode),
    fact('Commit', shortCommit(r.run.git_commit, r.run.git_dirty) + (r.run.git_branch ? ` (${r.run.git_branch})` : '')),
    fact('Duration', m.duration_seconds ? `${Math.round(m.duration_seconds)} s` : '–'),
    fact('Command', Array.isArray(m.command) ? m.command.join(' ') : (m.command || '–')),
    fact('Warnings', (m.warnings || []).join('; ') || 'none'))));
  root.appendChild(card('Targets', table([
    {label: 'Target', value: t => [h('a', {href: targetHref(t.target, r.run.id, r.run.hardware_key)}, t.target),
                                   t.reason ? h('div', {class: 'reason ' + (badgeTone(t.badge) === 'bad' ? 'bad' : 'muted')}, t.reason) : null]},
    {label: 'Verdict', value: t => badge(t.badge, t.status)},
    {label: 'Status', value: t => t.status},
    {label: 'Baseline', cls: 'num', value: t => ms(t.baseline.median_ms)},
    {label: 'Variants', value: t => t.variants.map(v => h('div', {}, `${v.name}: ${ms(v.median_ms)} `,
      speedupCell(v.speedup, v.ci_low, v.ci_high, v.minimum_required_speedup)))},
  ], r.targets, {rowClass: t => 'tone-' + (badgeTone(t.badge) || 'none')})));
}

const fact = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
