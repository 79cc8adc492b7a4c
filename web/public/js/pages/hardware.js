// The GPU: live state (NVML, polled while the page is open), measured ceilings (aisp hw) and what the
// stored runs recorded about each GPU type.
import {api} from '../api.js';
import {card, dataTable, h, table} from '../dom.js';
import {fmt, isNum, stamp, withUnit} from '../format.js';

export async function render(root, params, lifetime) {
  root.appendChild(h('h1', {}, 'Hardware'));
  const liveBox = card('Live GPU (NVML)', h('p', {class: 'muted'}, 'asking…'));
  root.appendChild(liveBox);
  const poll = async () => {
    try {
      const g = await api('gpu');
      liveBox.replaceChildren(h('h2', {}, 'Live GPU (NVML)'), ...live(g));
    } catch (e) {
      liveBox.replaceChildren(h('h2', {}, 'Live GPU (NVML)'), h('p', {class: 'error'}, e.message));
    }
  };
  await poll();
  lifetime.every(2000, poll);

  const hw = await api('hw');
  root.appendChild(card('Measured ceilings (hardware_capabilities files)',
    hw.capabilities.length ? hw.capabilities.map(capabilities) : null, hw.notes.map(n => h('p', {class: 'muted'}, n))));
  for (const x of hw.hardware) root.appendChild(card(`${x.gpu_model || x.hardware_key} — as recorded by run ${x.run.key}`, recorded(x)));
}

function live(g) {
  if (!g.available) return [h('p', {class: 'warn', id: 'no-gpu'}, g.reason || 'no GPU')];
  return [h('p', {class: 'muted'}, `driver ${g.driver_version || '?'} · refreshed every 2 s`), table([
    {label: 'GPU', value: x => `${x.index}: ${x.name || '?'}`},
    {label: 'SM clock', cls: 'num', value: x => `${fmt(x.sm_clock_mhz, 4)} / ${fmt(x.sm_clock_max_mhz, 4)} MHz`},
    {label: 'Mem clock', cls: 'num', value: x => `${fmt(x.mem_clock_mhz, 4)} MHz`},
    {label: 'Temp', cls: 'num', value: x => `${fmt(x.temperature_c, 3)} °C`},
    {label: 'Power', cls: 'num', value: x => `${fmt(x.power_w, 4)} / ${fmt(x.power_limit_w, 4)} W`},
    {label: 'Util', cls: 'num', value: x => `${fmt(x.utilization_gpu_pct, 3)} %`},
    {label: 'Memory', cls: 'num', value: x => `${fmt(x.memory_used_mb, 5)} / ${fmt(x.memory_total_mb, 5)} MiB`},
    {label: 'Clock events', cls: 'num', value: x => (isNum(x.clocks_event_reasons) ? '0x' + x.clocks_event_reasons.toString(16) : '–')},
    {label: 'Compute procs', cls: 'num', value: x => fmt(x.compute_processes, 3)},
  ], g.gpus)];
}

// The headline ceilings shown at once; the rest (tens of probes) fold behind their count.
const HEADLINE = ['hbm_gbs', 'hbm_copy_gbs', 'l2_read_gbs', 'smem_gbs', 'pcie_h2d_gbs', 'tflops_fp64', 'tflops_fp32',
                  'tflops_tf32', 'tflops_bf16', 'tflops_fp16', 'tflops_fp8_e4m3', 'tops_int8', 'launch_stream_period_us'];

function capabilities(c) {
  if (c.error) return h('p', {class: 'error'}, `${c.path}: ${c.error}`);
  const rows = Object.entries(c.ceilings || {});
  const columns = [
    {label: 'Ceiling', sort: ([k]) => k, value: ([k]) => k},
    {label: 'Measured', cls: 'num', sort: ([, v]) => v.value, value: ([, v]) => withUnit(v.value, v.unit)},
    {label: 'Datasheet', cls: 'num', sort: ([, v]) => v.pct_datasheet,
     value: ([, v]) => (isNum(v.datasheet) ? `${withUnit(v.datasheet, v.unit)} (${fmt(v.pct_datasheet, 3)} %)` : '–')},
    {label: 'How', value: ([, v]) => h('span', {class: 'small muted'}, v.method || v.derived_from || '')},
  ];
  const headline = rows.filter(([k]) => HEADLINE.includes(k)).sort(([a], [b]) => HEADLINE.indexOf(a) - HEADLINE.indexOf(b));
  return [h('h3', {}, `${c.hardware_key} · updated ${c.updated_utc || '?'}`), h('p', {class: 'muted small'}, c.path),
    dataTable(columns, headline.length ? headline : rows),
    headline.length && rows.length > headline.length
      ? h('details', {class: 'more'}, h('summary', {}, `all ${rows.length} ceilings`), dataTable(columns, rows, {filterId: ''})) : null];
}

function recorded(x) {
  const hwf = x.hardware || {};
  const facts = [['Hardware key', x.hardware_key], ['Driver / CUDA', `${hwf.driver_version || '–'} / ${hwf.cuda_version || '–'}`],
    ['Compute capability', hwf.compute_capability], ['SM clock (max)', `${fmt(hwf.gpu_clock_mhz, 4)} (${fmt(hwf.gpu_clock_max_mhz, 4)}) MHz`],
    ['Memory clock (max)', `${fmt(hwf.memory_clock_mhz, 4)} (${fmt(hwf.memory_clock_max_mhz, 4)}) MHz`],
    ['Power limit', `${fmt(hwf.power_limit_w, 4)} W`], ['ECC / persistence', `${hwf.ecc_enabled ?? '–'} / ${hwf.persistence_mode ?? '–'}`],
    ['GPUs', hwf.gpu_count], ['Run', `${stamp(x.run.stamp)} (${x.run.key})`]];
  const out = [h('dl', {class: 'facts'}, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '–')]))];
  if (Array.isArray(x.gpus)) out.push(table([
    {label: '#', value: g => g.ordinal}, {label: 'Name', value: g => g.name}, {label: 'SMs', cls: 'num', value: g => g.sm_count},
    {label: 'Memory', cls: 'num', value: g => `${fmt(g.global_memory_bytes / 2 ** 30, 4)} GiB`},
    {label: 'L2', cls: 'num', value: g => `${fmt(g.l2_bytes / 2 ** 20, 3)} MiB`},
    {label: 'Bus', cls: 'num', value: g => `${g.memory_bus_width_bits} bit`}, {label: 'PCI', value: g => g.pci_bus_id},
    {label: 'UUID', value: g => g.uuid}], x.gpus));
  return out;
}
