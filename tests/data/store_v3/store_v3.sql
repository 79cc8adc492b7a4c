-- A results store at schema version 3, written by the v3 store code (commit 7d3d878, src/store/) ingesting
-- tests/data/store_v3/runs/*; `sqlite3 aisp.db .dump` plus the user_version the dump leaves out.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,        -- the run directory's name
  stamp TEXT, label TEXT, kind TEXT, mode TEXT,
  started_at TEXT, ended_at TEXT, duration_s REAL,
  git_commit TEXT, git_branch TEXT, git_dirty INTEGER,
  hardware_key TEXT, gpu_model TEXT, gpu_uuid TEXT, driver_version TEXT, cuda_version TEXT,
  results_schema INTEGER, run_dir TEXT,
  ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
, complete INTEGER NOT NULL DEFAULT 1) STRICT;
INSERT INTO runs VALUES(1,'20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch','20261125_010001','targets-ch05_storage_odirect_ch02_managed_prefetch','bench','cold','2026-11-25T01:00:02+0000','2026-11-25T01:00:13+0000',10.793186797000000609,'fed256aca860331a61fa1349303172e9e9aad1fa','main',1,'h100_80gb_hbm3','NVIDIA H100 80GB HBM3','GPU-a2190cc4-14f6-252c-f713-199adf654c34','580.159.04','13.0',1,'/work/main/tests/data/store_v3/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch','2026-11-25T10:28:06Z',1);
INSERT INTO runs VALUES(2,'20261125_020000__bench__fixture-samples','20261125_020000','fixture-samples','bench','cold','2026-11-25T02:00:02+0000','2026-11-25T01:00:13+0000',10.793186797000000609,'fed256aca860331a61fa1349303172e9e9aad1fa','main',1,'h100_80gb_hbm3','NVIDIA H100 80GB HBM3','GPU-a2190cc4-14f6-252c-f713-199adf654c34','580.159.04','13.0',1,'/work/main/tests/data/store_v3/runs/20261125_020000__bench__fixture-samples','2026-11-25T10:28:06Z',1);
CREATE TABLE manifests (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  json TEXT NOT NULL
) STRICT;
INSERT INTO manifests VALUES(1,'{"build":{"build_type":"Release","cuda_architectures":"90a"},"command":"aisp bench run","compile_failures":[],"duration_seconds":10.793186797,"end_time":"2026-11-25T01:00:13+0000","environment":{"checks":[{"detail":"","name":"gpu","status":"ok","value":{"name":"NVIDIA H100 80GB HBM3","pci_bus_id":"0000:00:06.0","uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","visible_gpus":1}},{"detail":"","name":"foreign_gpu_processes","status":"ok","value":0},{"detail":"","name":"gpu_clocks_event_reasons","status":"ok","value":"idle"},{"detail":"","name":"gpu_ecc","status":"ok","value":"on"},{"detail":"","name":"gpu_persistence_mode","status":"ok","value":"on"},{"detail":"below max at idle (expected; warm-up raises it)","name":"gpu_sm_clock","status":"ok","value":{"max_mhz":1980.0,"mhz":345.0}},{"detail":"no cpufreq in /sys (usual in VMs): governor not visible","name":"cpu_governor","status":"unknown","value":null},{"detail":"","name":"swap","status":"ok","value":{"devices":0,"total_mib":0,"used_mib":0}},{"detail":"","name":"cgroup_cpu_quota","status":"ok","value":{"cpus":"max","cpuset":"0-15","path":"/process_api/b7ae370ef9de832b20cd1db0dd4cb0f0","version":2}},{"detail":"recorded: host memory is limited for this process","name":"cgroup_memory_limit","status":"ok","value":{"mib":131072}},{"detail":"","name":"numa","status":"ok","value":{"allowed_cpus":"0-15","gpu_node":-1,"node_cpus":{"0":"0-15"},"nodes":1}},{"detail":"virtual machine (hypervisor CPU flag, GPU pass-through): timings include virtualization effects","name":"virtualization","status":"warn","value":{"gpu_virtualization_mode":1,"hypervisor_flag":true}},{"detail":"","name":"transparent_hugepages","status":"ok","value":"madvise"},{"detail":"uncommitted changes (38 modified, 12 untracked): the commit does not identify the code","name":"git_worktree","status":"warn","value":{"commit":"fed256aca860331a61fa1349303172e9e9aad1fa","modified":38,"untracked":12}},{"detail":"","name":"versions","status":"ok","value":{"aisp_version":"0.1.0","compiler":"12.2.0","cublas_version":"13.1.0","cuda_driver_api_version":"13.0","cuda_runtime_version":"13.0","driver_version":"580.159.04","kernel":"6.18.44-fc-v657-gpu"}},{"detail":"","name":"build","status":"ok","value":{"build_type":"Release","cuda_architectures":"90a"}}],"cuda_visible_devices":null,"decision":"run","hostname":"vm","nvml":"available","profile":"portable","summary":{"fail":0,"ok":13,"unknown":1,"warn":2},"virtualized":true},"expectations":{"accept_regressions":false,"counts":{"improvement":0,"new":0,"not_comparable":0,"ok":2,"regression":0},"files_written":["/work/main/chapters/ch02/expectations_h100_80gb_hbm3.json","/work/main/chapters/ch05/expectations_h100_80gb_hbm3.json"],"hardware_key":"h100_80gb_hbm3","notes":[],"tolerance":0.05,"update":true},"git":{"branch":"main","commit":"fed256aca860331a61fa1349303172e9e9aad1fa","dirty":true},"gpus":[{"cc_major":9,"cc_minor":0,"clocks_event_reasons":"idle","compute_capability":"9.0","compute_processes":0,"driver_version":"580.159.04","ecc_enabled":1,"global_memory_bytes":85017493504,"hardware_key":"h100_80gb_hbm3","l2_bytes":52428800,"max_shared_per_block_optin":232448,"max_threads_per_sm":2048,"mem_clock_max_mhz":2619.0,"mem_clock_mhz":2619.0,"memory_bus_width_bits":5120,"name":"NVIDIA H100 80GB HBM3","ordinal":0,"pci_bus_id":"0000:00:06.0","persistence_mode":1,"power_limit_w":700.0,"power_w":72.092,"regs_per_sm":65536,"sm_clock_max_mhz":1980.0,"sm_clock_mhz":345.0,"sm_count":132,"temperature_c":36.0,"uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","virtualization_mode":1,"warp_size":32}],"hardware":{"compute_capability":"9.0","cuda_version":"13.0","driver_version":"580.159.04","ecc_enabled":1,"gpu_clock_max_mhz":1980.0,"gpu_clock_mhz":345.0,"gpu_count":1,"gpu_model":"NVIDIA H100 80GB HBM3","gpu_uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","hardware_key":"h100_80gb_hbm3","memory_clock_max_mhz":2619.0,"memory_clock_mhz":2619.0,"persistence_mode":1,"power_limit_w":700.0,"temperature_gpu_c":36.0},"iterations_override":0,"kind":"bench","mode":"cold","noise_floor":{"date":"2026-11-25T00:46:29+0000","device_floor":0.6731506933735605,"file":"/tmp/aisp_suite_artifacts/calibration/noise_floor_h100_80gb_hbm3.json"},"reproducible":false,"seeds":{"policy":"random per target, drawn after plugin load"},"software":{"aisp_version":"0.1.0","compiler":"12.2.0","cublas_version":"13.1.0","cuda_driver_api_version":"13.0","cuda_runtime_version":"13.0","kernel":"6.18.44-fc-v657-gpu"},"start_time":"2026-11-25T01:00:02+0000","targets":["ch02:managed_prefetch","ch05:storage_odirect"],"validity":"on","warmup":5,"warnings":["environment: virtualization: virtual machine (hypervisor CPU flag, GPU pass-through): timings include virtualization effects","environment: git_worktree: uncommitted changes (38 modified, 12 untracked): the commit does not identify the code"]}');
INSERT INTO manifests VALUES(2,'{"build":{"build_type":"Release","cuda_architectures":"90a"},"command":"aisp bench run","compile_failures":[],"duration_seconds":10.793186797,"end_time":"2026-11-25T01:00:13+0000","environment":{"checks":[{"detail":"","name":"gpu","status":"ok","value":{"name":"NVIDIA H100 80GB HBM3","pci_bus_id":"0000:00:06.0","uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","visible_gpus":1}},{"detail":"","name":"foreign_gpu_processes","status":"ok","value":0},{"detail":"","name":"gpu_clocks_event_reasons","status":"ok","value":"idle"},{"detail":"","name":"gpu_ecc","status":"ok","value":"on"},{"detail":"","name":"gpu_persistence_mode","status":"ok","value":"on"},{"detail":"below max at idle (expected; warm-up raises it)","name":"gpu_sm_clock","status":"ok","value":{"max_mhz":1980.0,"mhz":345.0}},{"detail":"no cpufreq in /sys (usual in VMs): governor not visible","name":"cpu_governor","status":"unknown","value":null},{"detail":"","name":"swap","status":"ok","value":{"devices":0,"total_mib":0,"used_mib":0}},{"detail":"","name":"cgroup_cpu_quota","status":"ok","value":{"cpus":"max","cpuset":"0-15","path":"/process_api/b7ae370ef9de832b20cd1db0dd4cb0f0","version":2}},{"detail":"recorded: host memory is limited for this process","name":"cgroup_memory_limit","status":"ok","value":{"mib":131072}},{"detail":"","name":"numa","status":"ok","value":{"allowed_cpus":"0-15","gpu_node":-1,"node_cpus":{"0":"0-15"},"nodes":1}},{"detail":"virtual machine (hypervisor CPU flag, GPU pass-through): timings include virtualization effects","name":"virtualization","status":"warn","value":{"gpu_virtualization_mode":1,"hypervisor_flag":true}},{"detail":"","name":"transparent_hugepages","status":"ok","value":"madvise"},{"detail":"uncommitted changes (38 modified, 12 untracked): the commit does not identify the code","name":"git_worktree","status":"warn","value":{"commit":"fed256aca860331a61fa1349303172e9e9aad1fa","modified":38,"untracked":12}},{"detail":"","name":"versions","status":"ok","value":{"aisp_version":"0.1.0","compiler":"12.2.0","cublas_version":"13.1.0","cuda_driver_api_version":"13.0","cuda_runtime_version":"13.0","driver_version":"580.159.04","kernel":"6.18.44-fc-v657-gpu"}},{"detail":"","name":"build","status":"ok","value":{"build_type":"Release","cuda_architectures":"90a"}}],"cuda_visible_devices":null,"decision":"run","hostname":"vm","nvml":"available","profile":"portable","summary":{"fail":0,"ok":13,"unknown":1,"warn":2},"virtualized":true},"expectations":{"accept_regressions":false,"counts":{"improvement":0,"new":0,"not_comparable":0,"ok":2,"regression":0},"files_written":["/work/main/chapters/ch02/expectations_h100_80gb_hbm3.json","/work/main/chapters/ch05/expectations_h100_80gb_hbm3.json"],"hardware_key":"h100_80gb_hbm3","notes":[],"tolerance":0.05,"update":true},"git":{"branch":"main","commit":"fed256aca860331a61fa1349303172e9e9aad1fa","dirty":true},"gpus":[{"cc_major":9,"cc_minor":0,"clocks_event_reasons":"idle","compute_capability":"9.0","compute_processes":0,"driver_version":"580.159.04","ecc_enabled":1,"global_memory_bytes":85017493504,"hardware_key":"h100_80gb_hbm3","l2_bytes":52428800,"max_shared_per_block_optin":232448,"max_threads_per_sm":2048,"mem_clock_max_mhz":2619.0,"mem_clock_mhz":2619.0,"memory_bus_width_bits":5120,"name":"NVIDIA H100 80GB HBM3","ordinal":0,"pci_bus_id":"0000:00:06.0","persistence_mode":1,"power_limit_w":700.0,"power_w":72.092,"regs_per_sm":65536,"sm_clock_max_mhz":1980.0,"sm_clock_mhz":345.0,"sm_count":132,"temperature_c":36.0,"uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","virtualization_mode":1,"warp_size":32}],"hardware":{"compute_capability":"9.0","cuda_version":"13.0","driver_version":"580.159.04","ecc_enabled":1,"gpu_clock_max_mhz":1980.0,"gpu_clock_mhz":345.0,"gpu_count":1,"gpu_model":"NVIDIA H100 80GB HBM3","gpu_uuid":"GPU-a2190cc4-14f6-252c-f713-199adf654c34","hardware_key":"h100_80gb_hbm3","memory_clock_max_mhz":2619.0,"memory_clock_mhz":2619.0,"persistence_mode":1,"power_limit_w":700.0,"temperature_gpu_c":36.0},"iterations_override":0,"kind":"bench","mode":"cold","noise_floor":{"date":"2026-11-25T00:46:29+0000","device_floor":0.6731506933735605,"file":"/tmp/aisp_suite_artifacts/calibration/noise_floor_h100_80gb_hbm3.json"},"reproducible":false,"seeds":{"policy":"random per target, drawn after plugin load"},"software":{"aisp_version":"0.1.0","compiler":"12.2.0","cublas_version":"13.1.0","cuda_driver_api_version":"13.0","cuda_runtime_version":"13.0","kernel":"6.18.44-fc-v657-gpu"},"start_time":"2026-11-25T02:00:02+0000","targets":["ch02:managed_prefetch","ch05:storage_odirect"],"validity":"on","warmup":5,"warnings":["environment: virtualization: virtual machine (hypervisor CPU flag, GPU pass-through): timings include virtualization effects","environment: git_worktree: uncommitted changes (38 modified, 12 untracked): the commit does not identify the code"]}');
CREATE TABLE targets (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target TEXT NOT NULL, chapter TEXT, example TEXT, status TEXT, error TEXT, mode TEXT, goal TEXT,
  best_speedup REAL, best_optimization TEXT,
  doc TEXT NOT NULL,                   -- the target's JSON without its variants
  UNIQUE (run_id, target)
) STRICT;
INSERT INTO targets VALUES(1,1,'ch02:managed_prefetch','ch02','managed_prefetch','succeeded','','cold','speed',1.7986057375462827234,'managed_prefetch','{"baseline_file":"ch02/baseline_managed_prefetch.so","baseline_memory_mb":162.0,"baseline_p90_ms":4.367871999740601,"baseline_time_ms":3.706912040710449,"best_memory_savings_pct":79.01234567901234,"best_optimization":"managed_prefetch","best_speedup":1.7986057375462827,"chapter":"ch02","error":null,"example":"managed_prefetch","expectation":{"accepted":false,"ci_high":1.9245873447766142,"ci_low":1.7032652524567213,"expected_ci_high":2.0627146479273395,"expected_ci_low":1.8498982083837754,"expected_provenance":{"cuda_version":"13.0","driver_version":"580.159.04","git_commit":"ed5a85b91d703be93fc557d00550c206b2589999","timestamp":"2026-11-23T04:09:46+0000"},"expected_speedup":1.9798612087136198,"file":"/work/main/chapters/ch02/expectations_h100_80gb_hbm3.json","message":"speedup 1.799x [1.703, 1.925] consistent with the expected 1.980x [1.850, 2.063]","persisted":true,"speedup":1.7986057375462827,"status":"ok","tolerance":0.05,"variant":"managed_prefetch"},"minimum_required_speedup":1.05,"mode":"cold","optimization_goal":"speed","phase_seconds":{"load":0.583928058,"replay":0.00140402,"setup":0.025936672,"timing":1.535333287,"verify":0.385904865,"warmup":0.556445916,"wrap_up":0.238070217},"seeds":[9271387572708318121,6889145410802471364,13071516748445026567,13863178720662165426],"status":"succeeded","target":"ch02:managed_prefetch","type":"cuda","workload":{"bytes":50331648.0,"flops":4194304.0,"item_unit":"migrated bytes","items":33554432.0,"params":{"n":4194304},"precision":"f32"}}');
INSERT INTO targets VALUES(2,1,'ch05:storage_odirect','ch05','storage_odirect','succeeded','','cold','speed',1.1698132689214910673,'storage_odirect','{"baseline_file":"ch05/baseline_storage_odirect.so","baseline_memory_mb":26.0,"baseline_p90_ms":7.172096157073975,"baseline_time_ms":5.807551860809326,"best_memory_savings_pct":0.0,"best_optimization":"storage_odirect","best_speedup":1.169813268921491,"chapter":"ch05","error":null,"example":"storage_odirect","expectation":{"accepted":false,"ci_high":1.335820624327257,"ci_low":1.025539348507598,"expected_ci_high":1.373253728621878,"expected_ci_low":1.0479605582474616,"expected_provenance":{"cuda_version":"13.0","driver_version":"580.159.04","git_commit":"fed256aca860331a61fa1349303172e9e9aad1fa","timestamp":"2026-11-25T00:52:48+0000"},"expected_speedup":1.1972951233644453,"file":"/work/main/chapters/ch05/expectations_h100_80gb_hbm3.json","message":"speedup 1.170x [1.026, 1.336] consistent with the expected 1.197x [1.048, 1.373]","persisted":true,"speedup":1.169813268921491,"status":"ok","tolerance":0.05,"variant":"storage_odirect"},"minimum_required_speedup":1.05,"mode":"cold","optimization_goal":"speed","phase_seconds":{"load":0.491778216,"replay":0.001328919,"setup":0.033769288,"timing":4.307973765,"verify":0.157294653,"warmup":2.189578278,"wrap_up":0.27640305},"seeds":[6216556526269589074,12083567302714286878,5791434837342657182,13166273469023659460],"status":"succeeded","target":"ch05:storage_odirect","type":"cuda","workload":{"bytes":33554432.0,"flops":2097152.0,"item_unit":"file bytes","items":8388608.0,"params":{"n":2097152},"precision":"f32"}}');
INSERT INTO targets VALUES(3,2,'ch02:managed_prefetch','ch02','managed_prefetch','succeeded','','cold','speed',1.7986057375462827234,'managed_prefetch','{"baseline_file":"ch02/baseline_managed_prefetch.so","baseline_memory_mb":162.0,"baseline_p90_ms":4.367871999740601,"baseline_time_ms":3.706912040710449,"best_memory_savings_pct":79.01234567901234,"best_optimization":"managed_prefetch","best_speedup":1.7986057375462827,"chapter":"ch02","error":null,"example":"managed_prefetch","expectation":{"accepted":false,"ci_high":1.9245873447766142,"ci_low":1.7032652524567213,"expected_ci_high":2.0627146479273395,"expected_ci_low":1.8498982083837754,"expected_provenance":{"cuda_version":"13.0","driver_version":"580.159.04","git_commit":"ed5a85b91d703be93fc557d00550c206b2589999","timestamp":"2026-11-23T04:09:46+0000"},"expected_speedup":1.9798612087136198,"file":"/work/main/chapters/ch02/expectations_h100_80gb_hbm3.json","message":"speedup 1.799x [1.703, 1.925] consistent with the expected 1.980x [1.850, 2.063]","persisted":true,"speedup":1.7986057375462827,"status":"ok","tolerance":0.05,"variant":"managed_prefetch"},"minimum_required_speedup":1.05,"mode":"cold","optimization_goal":"speed","phase_seconds":{"load":0.583928058,"replay":0.00140402,"setup":0.025936672,"timing":1.535333287,"verify":0.385904865,"warmup":0.556445916,"wrap_up":0.238070217},"seeds":[9271387572708318121,6889145410802471364,13071516748445026567,13863178720662165426],"status":"succeeded","target":"ch02:managed_prefetch","type":"cuda","workload":{"bytes":50331648.0,"flops":4194304.0,"item_unit":"migrated bytes","items":33554432.0,"params":{"n":4194304},"precision":"f32"}}');
INSERT INTO targets VALUES(4,2,'ch05:storage_odirect','ch05','storage_odirect','succeeded','','cold','speed',1.1698132689214910673,'storage_odirect','{"baseline_file":"ch05/baseline_storage_odirect.so","baseline_memory_mb":26.0,"baseline_p90_ms":7.172096157073975,"baseline_time_ms":5.807551860809326,"best_memory_savings_pct":0.0,"best_optimization":"storage_odirect","best_speedup":1.169813268921491,"chapter":"ch05","error":null,"example":"storage_odirect","expectation":{"accepted":false,"ci_high":1.335820624327257,"ci_low":1.025539348507598,"expected_ci_high":1.373253728621878,"expected_ci_low":1.0479605582474616,"expected_provenance":{"cuda_version":"13.0","driver_version":"580.159.04","git_commit":"fed256aca860331a61fa1349303172e9e9aad1fa","timestamp":"2026-11-25T00:52:48+0000"},"expected_speedup":1.1972951233644453,"file":"/work/main/chapters/ch05/expectations_h100_80gb_hbm3.json","message":"speedup 1.170x [1.026, 1.336] consistent with the expected 1.197x [1.048, 1.373]","persisted":true,"speedup":1.169813268921491,"status":"ok","tolerance":0.05,"variant":"storage_odirect"},"minimum_required_speedup":1.05,"mode":"cold","optimization_goal":"speed","phase_seconds":{"load":0.491778216,"replay":0.001328919,"setup":0.033769288,"timing":4.307973765,"verify":0.157294653,"warmup":2.189578278,"wrap_up":0.27640305},"seeds":[6216556526269589074,12083567302714286878,5791434837342657182,13166273469023659460],"status":"succeeded","target":"ch05:storage_odirect","type":"cuda","workload":{"bytes":33554432.0,"flops":2097152.0,"item_unit":"file bytes","items":8388608.0,"params":{"n":2097152},"precision":"f32"}}');
CREATE TABLE variants (
  id INTEGER PRIMARY KEY,
  target_row INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,           -- 0 = baseline, then the optimizations in file order
  name TEXT NOT NULL, status TEXT, verdict TEXT, n INTEGER,
  median_ms REAL, median_low_ms REAL, median_high_ms REAL, mean_ms REAL, p90_ms REAL, rel_noise REAL,
  speedup REAL, ci_low REAL, ci_high REAL, p_value REAL, peak_memory_mb REAL, verified INTEGER,
  doc TEXT NOT NULL,                   -- the variant's JSON without its raw sample arrays
  UNIQUE (target_row, position)
) STRICT;
INSERT INTO variants VALUES(1,1,0,'baseline','succeeded','',36,3.7069120407104492187,3.0566399097442626953,4.5604162216186523437,3.7790658010376825259,4.3678719997406005859,0.10974401042945350348,0.0,0.0,0.0,1.0,162.0,NULL,'{"checks":[{"detail":"; 3 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 36 samples: median 5.2 us, max 21.3 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 54 samples; 9 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 3 audited blocks (18 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 3 audited blocks (18 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param(\"n\") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":0.0,"ci_low":0.0,"ci_process_spread":null,"discarded_samples":0,"energy":{"gpu_busy_s":0.1997574405670166,"joules":37.846000000000004,"joules_per_run":0.40715747483066783,"mean_power_w":109.83737147230339,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":0.34456396300000003},"error":null,"error_kind":"","file":"ch02/baseline_managed_prefetch.so","harness_overhead_ms":{"block":344.563963,"drain":0.437335,"input_refill":5.37874,"l2_flush":6.065908,"nvml":0.385949,"supervisor_block":388.530139},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch02__managed_prefetch__baseline.log","memory":{"allocated_mb":32.0,"peak_mb":162.0,"reserved_mb":162.0},"memory_mb":162.0,"memory_savings_pct":0.0,"minimum_required_speedup":0.0,"name":"baseline","p_value":1.0,"speedup":0.0,"status":"succeeded","stop_reason":"every variant''s comparison was decided","technique":"kernel reads managed memory resident on the host: on-demand page faults","telemetry":{"block_gpu_ms":[20.588512182235718,23.490272045135498,20.135167837142944,20.49734401702881],"block_wall_ms":[58.523849,27.784226,62.579733,24.824157],"energy_mj":[0.0,12308.0,12971.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[126.075,128.301,128.539,126.12],"temp_c":[37.0,37.0,37.0,37.0]},"time_ms":3.706912040710449,"timing":{"iterations":36,"max_ms":4.560416221618652,"mean_ms":3.7790658010376825,"median_ms":3.706912040710449,"min_ms":2.735680103302002,"p10_ms":3.388912081718445,"p50_ms":3.706912040710449,"p90_ms":4.367871999740601,"p99_ms":4.54442253112793,"rel_noise":0.1097440104294535,"std_ms":0.4147298366826705},"timing_note":"","validity":{"audit_overhead_pct":-3.2087097717790614,"audited_blocks":3,"enabled":true,"timed_outputs_verified":3},"verdict":"","verification":null,"warmup_iterations":50}');
INSERT INTO variants VALUES(2,1,1,'managed_prefetch','succeeded','FASTER',34,2.0609920024871826171,2.0010240077972412109,2.3524799346923828125,2.048006597687216157,2.3109695911407470703,0.11744180047953228784,1.7986057375462827234,1.7032652524567213347,1.924587344776614195,6.6878947287307410644e-13,34.0,1,'{"checks":[{"detail":"outputs poisoned before 2 verified runs; no poison survived","id":"K1","name":"outputs fully written","passed":true},{"detail":"8388608 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)","id":"K2","name":"outputs match the baseline","passed":true},{"detail":"2 rounds, each with a fresh seed drawn after setup; 4 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 34 samples: median 3.4 us, max 6.8 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 79 samples; 7 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 4 audited blocks (45 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 4 audited blocks (45 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param(\"n\") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":1.9245873447766142,"ci_low":1.7032652524567213,"ci_process_spread":{"df":3,"sd_log":0.0054182342076714105},"discarded_samples":0,"energy":{"gpu_busy_s":0.19017360019683838,"joules":62.531000000000006,"joules_per_run":0.286728678394429,"mean_power_w":139.1216841445323,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":0.449469832},"error":null,"error_kind":"","file":"ch02/optimized_managed_prefetch.so","harness_overhead_ms":{"block":449.469832,"drain":0.692507,"input_refill":7.235641,"l2_flush":9.599699000000001,"nvml":0.6056790000000001,"supervisor_block":492.891891},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch02__managed_prefetch__managed_prefetch.log","memory":{"allocated_mb":32.0,"peak_mb":34.0,"reserved_mb":34.0},"memory_mb":34.0,"memory_savings_pct":79.01234567901234,"minimum_required_speedup":1.05,"name":"managed_prefetch","p_value":6.687894728730741e-13,"speedup":1.7986057375462827,"status":"succeeded","stop_reason":"comparison decided after 34 samples: 99% CI [1.6834, 1.9764] against the 1.050x band","technique":"cudaMemPrefetchAsync to the GPU before the kernel","telemetry":{"block_gpu_ms":[21.423967838287354,29.821344137191772,23.090688228607178,26.07081627845764],"block_wall_ms":[84.227505,92.576927,27.945981,30.666414],"energy_mj":[12064.0,12044.0,0.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[126.869,127.665,128.539,126.12],"temp_c":[37.0,37.0,37.0,37.0]},"time_ms":2.0609920024871826,"timing":{"iterations":34,"max_ms":2.4721601009368896,"mean_ms":2.048006597687216,"median_ms":2.0609920024871826,"min_ms":1.448415994644165,"p10_ms":1.6802560448646546,"p50_ms":2.0609920024871826,"p90_ms":2.310969591140747,"p99_ms":2.4585799407958984,"rel_noise":0.11744180047953229,"std_ms":0.24052158222634779},"timing_note":"","validity":{"audit_overhead_pct":6.9838174352099935,"audited_blocks":4,"enabled":true,"timed_outputs_verified":4},"verdict":"FASTER","verification":{"atol":1e-08,"compared":8388608,"location":-1,"max_diff":0.0,"max_rel_diff":0.0,"mismatches":0,"output":"","passed":true,"rtol":1e-05,"tolerance_justification":"","unwritten":0},"warmup_iterations":100}');
INSERT INTO variants VALUES(3,2,0,'baseline','succeeded','',167,5.8075518608093261718,4.0901441574096679687,5.6179838180541992187,5.9733449513326863922,7.1720961570739749646,0.14820991530027161076,0.0,0.0,0.0,1.0,26.0,NULL,'{"checks":[{"detail":"; 7 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 167 samples: median 7.3 us, max 29.0 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 197 samples; 48 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 7 audited blocks (30 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 7 audited blocks (30 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (storage (synchronous): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":0.0,"ci_low":0.0,"ci_process_spread":null,"discarded_samples":0,"energy":{"gpu_busy_s":1.19425049495697,"joules":184.77900000000002,"joules_per_run":0.7097286923395146,"mean_power_w":122.20789574500823,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":1.512005414},"error":null,"error_kind":"","file":"ch05/baseline_storage_odirect.so","harness_overhead_ms":{"block":1512.0054139999997,"drain":24.34829699999999,"input_refill":13.526522000000002,"l2_flush":24.574880999999994,"nvml":2.2742660000000003,"supervisor_block":1705.561889},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch05__storage_odirect__baseline.log","memory":{"allocated_mb":24.0,"peak_mb":26.0,"reserved_mb":26.0},"memory_mb":26.0,"memory_savings_pct":0.0,"minimum_required_speedup":0.0,"name":"baseline","p_value":1.0,"speedup":0.0,"status":"succeeded","stop_reason":"noise stable at 14.8%","technique":"one O_DIRECT pread of the whole file into pageable memory, then blocking cudaMemcpy","telemetry":{"block_gpu_ms":[35.43580770492554,23.631008625030518,24.2904314994812,28.88371181488037],"block_wall_ms":[60.152839,26.871895,30.171763,51.724044],"energy_mj":[0.0,0.0,12350.0,12457.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[121.021,121.451,121.451,121.745],"temp_c":[38.0,38.0,38.0,38.0]},"time_ms":5.807551860809326,"timing":{"iterations":167,"max_ms":9.189727783203125,"mean_ms":5.973344951332686,"median_ms":5.807551860809326,"min_ms":4.090144157409668,"p10_ms":5.02053747177124,"p50_ms":5.807551860809326,"p90_ms":7.172096157073975,"p99_ms":8.475950622558594,"rel_noise":0.1482099153002716,"std_ms":0.8853089492963224},"timing_note":"run() waited on the harness stream while it was held (host sync or a full launch queue); samples are taken without the blocking kernel, so they include enqueue latency","validity":{"audit_overhead_pct":9.466847037999425,"audited_blocks":7,"enabled":true,"timed_outputs_verified":7},"verdict":"","verification":null,"warmup_iterations":5}');
INSERT INTO variants VALUES(4,2,1,'storage_odirect','succeeded','INCONCLUSIVE',195,4.964511871337890625,3.8055679798126220703,4.8939199447631835937,5.3162515652485380357,6.0364670753479003906,0.32186976892427332508,1.1698132689214910673,1.0255393485075980919,1.3358206243272570112,4.2590620518765500354e-21,26.0,1,'{"checks":[{"detail":"outputs poisoned before 2 verified runs; no poison survived","id":"K1","name":"outputs fully written","passed":true},{"detail":"4194304 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)","id":"K2","name":"outputs match the baseline","passed":true},{"detail":"2 rounds, each with a fresh seed drawn after setup; 7 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 195 samples: median 7.5 us, max 25.9 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 229 samples; 46 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 7 audited blocks (34 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 7 audited blocks (34 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (storage (pipelined): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":1.335820624327257,"ci_low":1.025539348507598,"ci_process_spread":{"df":3,"sd_log":0.028667290711998566},"discarded_samples":0,"energy":{"gpu_busy_s":1.2096204798221586,"joules":185.848,"joules_per_run":0.5798824960970357,"mean_power_w":116.80554123456304,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":1.591088899},"error":null,"error_kind":"","file":"ch05/optimized_storage_odirect.so","harness_overhead_ms":{"block":1591.088899,"drain":27.819677,"input_refill":35.841522,"l2_flush":28.477267,"nvml":2.300149,"supervisor_block":1824.4060729999997},"informational":"the gain is the GPU copy tail next to the disk time: 10-25% on a ~2 GB/s virtual disk whose reads differ by ~3% from one process to another, a larger share on local NVMe","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch05__storage_odirect__storage_odirect.log","memory":{"allocated_mb":24.0,"peak_mb":26.0,"reserved_mb":26.0},"memory_mb":26.0,"memory_savings_pct":0.0,"minimum_required_speedup":1.05,"name":"storage_odirect","p_value":4.25906205187655e-21,"speedup":1.169813268921491,"status":"succeeded","stop_reason":"noise stable at 32.2%","technique":"8 threads pread() with O_DIRECT into 10 pinned 1 MiB slots; GPU DMA overlaps the reads","telemetry":{"block_gpu_ms":[20.98089599609375,16.32591986656189,26.330207586288452,20.53459143638611],"block_wall_ms":[43.878064,19.814567,29.735665,24.271736],"energy_mj":[0.0,0.0,0.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[121.166,121.451,121.451,121.745],"temp_c":[38.0,38.0,38.0,38.0]},"time_ms":4.964511871337891,"timing":{"iterations":195,"max_ms":19.10848045349121,"mean_ms":5.316251565248538,"median_ms":4.964511871337891,"min_ms":3.474720001220703,"p10_ms":4.407692623138428,"p50_ms":4.964511871337891,"p90_ms":6.0364670753479,"p99_ms":13.773867149353038,"rel_noise":0.3218697689242733,"std_ms":1.7111406628498533},"timing_note":"run() waited on the harness stream while it was held (host sync or a full launch queue); samples are taken without the blocking kernel, so they include enqueue latency; informational (the gain is the GPU copy tail next to the disk time: 10-25% on a ~2 GB/s virtual disk whose reads differ by ~3% from one process to another, a larger share on local NVMe): INCONCLUSIVE at 1.170x, not a failure","validity":{"audit_overhead_pct":2.0526472299040144,"audited_blocks":7,"enabled":true,"timed_outputs_verified":7},"verdict":"INCONCLUSIVE","verification":{"atol":1e-08,"compared":4194304,"location":-1,"max_diff":0.0,"max_rel_diff":0.0,"mismatches":0,"output":"","passed":true,"rtol":1e-05,"tolerance_justification":"","unwritten":0},"warmup_iterations":5}');
INSERT INTO variants VALUES(5,3,0,'baseline','succeeded','',36,3.7069120407104492187,3.0566399097442626953,4.5604162216186523437,3.7790658010376825259,4.3678719997406005859,0.10974401042945350348,0.0,0.0,0.0,1.0,162.0,NULL,'{"checks":[{"detail":"; 3 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 36 samples: median 5.2 us, max 21.3 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 54 samples; 9 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 3 audited blocks (18 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 3 audited blocks (18 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param(\"n\") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":0.0,"ci_low":0.0,"ci_process_spread":null,"discarded_samples":0,"energy":{"gpu_busy_s":0.1997574405670166,"joules":37.846000000000004,"joules_per_run":0.40715747483066783,"mean_power_w":109.83737147230339,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":0.34456396300000003},"error":null,"error_kind":"","file":"ch02/baseline_managed_prefetch.so","harness_overhead_ms":{"block":344.563963,"drain":0.437335,"input_refill":5.37874,"l2_flush":6.065908,"nvml":0.385949,"supervisor_block":388.530139},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch02__managed_prefetch__baseline.log","memory":{"allocated_mb":32.0,"peak_mb":162.0,"reserved_mb":162.0},"memory_mb":162.0,"memory_savings_pct":0.0,"minimum_required_speedup":0.0,"name":"baseline","p_value":1.0,"speedup":0.0,"status":"succeeded","stop_reason":"every variant''s comparison was decided","technique":"kernel reads managed memory resident on the host: on-demand page faults","telemetry":{"block_gpu_ms":[20.588512182235718,23.490272045135498,20.135167837142944,20.49734401702881],"block_wall_ms":[58.523849,27.784226,62.579733,24.824157],"energy_mj":[0.0,12308.0,12971.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[126.075,128.301,128.539,126.12],"temp_c":[37.0,37.0,37.0,37.0]},"time_ms":3.706912040710449,"timing":{"iterations":36,"max_ms":4.560416221618652,"mean_ms":3.7790658010376825,"median_ms":3.706912040710449,"min_ms":2.735680103302002,"p10_ms":3.388912081718445,"p50_ms":3.706912040710449,"p90_ms":4.367871999740601,"p99_ms":4.54442253112793,"rel_noise":0.1097440104294535,"std_ms":0.4147298366826705},"timing_note":"","validity":{"audit_overhead_pct":-3.2087097717790614,"audited_blocks":3,"enabled":true,"timed_outputs_verified":3},"verdict":"","verification":null,"warmup_iterations":50}');
INSERT INTO variants VALUES(6,3,1,'managed_prefetch','succeeded','FASTER',34,2.0609920024871826171,2.0010240077972412109,2.3524799346923828125,2.048006597687216157,2.3109695911407470703,0.11744180047953228784,1.7986057375462827234,1.7032652524567213347,1.924587344776614195,6.6878947287307410644e-13,34.0,1,'{"checks":[{"detail":"outputs poisoned before 2 verified runs; no poison survived","id":"K1","name":"outputs fully written","passed":true},{"detail":"8388608 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)","id":"K2","name":"outputs match the baseline","passed":true},{"detail":"2 rounds, each with a fresh seed drawn after setup; 4 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 34 samples: median 3.4 us, max 6.8 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 79 samples; 7 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 4 audited blocks (45 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 4 audited blocks (45 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param(\"n\") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":1.9245873447766142,"ci_low":1.7032652524567213,"ci_process_spread":{"df":3,"sd_log":0.0054182342076714105},"discarded_samples":0,"energy":{"gpu_busy_s":0.19017360019683838,"joules":62.531000000000006,"joules_per_run":0.286728678394429,"mean_power_w":139.1216841445323,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":0.449469832},"error":null,"error_kind":"","file":"ch02/optimized_managed_prefetch.so","harness_overhead_ms":{"block":449.469832,"drain":0.692507,"input_refill":7.235641,"l2_flush":9.599699000000001,"nvml":0.6056790000000001,"supervisor_block":492.891891},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch02__managed_prefetch__managed_prefetch.log","memory":{"allocated_mb":32.0,"peak_mb":34.0,"reserved_mb":34.0},"memory_mb":34.0,"memory_savings_pct":79.01234567901234,"minimum_required_speedup":1.05,"name":"managed_prefetch","p_value":6.687894728730741e-13,"speedup":1.7986057375462827,"status":"succeeded","stop_reason":"comparison decided after 34 samples: 99% CI [1.6834, 1.9764] against the 1.050x band","technique":"cudaMemPrefetchAsync to the GPU before the kernel","telemetry":{"block_gpu_ms":[21.423967838287354,29.821344137191772,23.090688228607178,26.07081627845764],"block_wall_ms":[84.227505,92.576927,27.945981,30.666414],"energy_mj":[12064.0,12044.0,0.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[126.869,127.665,128.539,126.12],"temp_c":[37.0,37.0,37.0,37.0]},"time_ms":2.0609920024871826,"timing":{"iterations":34,"max_ms":2.4721601009368896,"mean_ms":2.048006597687216,"median_ms":2.0609920024871826,"min_ms":1.448415994644165,"p10_ms":1.6802560448646546,"p50_ms":2.0609920024871826,"p90_ms":2.310969591140747,"p99_ms":2.4585799407958984,"rel_noise":0.11744180047953229,"std_ms":0.24052158222634779},"timing_note":"","validity":{"audit_overhead_pct":6.9838174352099935,"audited_blocks":4,"enabled":true,"timed_outputs_verified":4},"verdict":"FASTER","verification":{"atol":1e-08,"compared":8388608,"location":-1,"max_diff":0.0,"max_rel_diff":0.0,"mismatches":0,"output":"","passed":true,"rtol":1e-05,"tolerance_justification":"","unwritten":0},"warmup_iterations":100}');
INSERT INTO variants VALUES(7,4,0,'baseline','succeeded','',167,5.8075518608093261718,4.0901441574096679687,5.6179838180541992187,5.9733449513326863922,7.1720961570739749646,0.14820991530027161076,0.0,0.0,0.0,1.0,26.0,NULL,'{"checks":[{"detail":"; 7 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 167 samples: median 7.3 us, max 29.0 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 197 samples; 48 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 7 audited blocks (30 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 7 audited blocks (30 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (storage (synchronous): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":0.0,"ci_low":0.0,"ci_process_spread":null,"discarded_samples":0,"energy":{"gpu_busy_s":1.19425049495697,"joules":184.77900000000002,"joules_per_run":0.7097286923395146,"mean_power_w":122.20789574500823,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":1.512005414},"error":null,"error_kind":"","file":"ch05/baseline_storage_odirect.so","harness_overhead_ms":{"block":1512.0054139999997,"drain":24.34829699999999,"input_refill":13.526522000000002,"l2_flush":24.574880999999994,"nvml":2.2742660000000003,"supervisor_block":1705.561889},"informational":"","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch05__storage_odirect__baseline.log","memory":{"allocated_mb":24.0,"peak_mb":26.0,"reserved_mb":26.0},"memory_mb":26.0,"memory_savings_pct":0.0,"minimum_required_speedup":0.0,"name":"baseline","p_value":1.0,"speedup":0.0,"status":"succeeded","stop_reason":"noise stable at 14.8%","technique":"one O_DIRECT pread of the whole file into pageable memory, then blocking cudaMemcpy","telemetry":{"block_gpu_ms":[35.43580770492554,23.631008625030518,24.2904314994812,28.88371181488037],"block_wall_ms":[60.152839,26.871895,30.171763,51.724044],"energy_mj":[0.0,0.0,12350.0,12457.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[121.021,121.451,121.451,121.745],"temp_c":[38.0,38.0,38.0,38.0]},"time_ms":5.807551860809326,"timing":{"iterations":167,"max_ms":9.189727783203125,"mean_ms":5.973344951332686,"median_ms":5.807551860809326,"min_ms":4.090144157409668,"p10_ms":5.02053747177124,"p50_ms":5.807551860809326,"p90_ms":7.172096157073975,"p99_ms":8.475950622558594,"rel_noise":0.1482099153002716,"std_ms":0.8853089492963224},"timing_note":"run() waited on the harness stream while it was held (host sync or a full launch queue); samples are taken without the blocking kernel, so they include enqueue latency","validity":{"audit_overhead_pct":9.466847037999425,"audited_blocks":7,"enabled":true,"timed_outputs_verified":7},"verdict":"","verification":null,"warmup_iterations":5}');
INSERT INTO variants VALUES(8,4,1,'storage_odirect','succeeded','INCONCLUSIVE',195,4.964511871337890625,3.8055679798126220703,4.8939199447631835937,5.3162515652485380357,6.0364670753479003906,0.32186976892427332508,1.1698132689214910673,1.0255393485075980919,1.3358206243272570112,4.2590620518765500354e-21,26.0,1,'{"checks":[{"detail":"outputs poisoned before 2 verified runs; no poison survived","id":"K1","name":"outputs fully written","passed":true},{"detail":"4194304 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)","id":"K2","name":"outputs match the baseline","passed":true},{"detail":"2 rounds, each with a fresh seed drawn after setup; 7 timed samples (fresh inputs before every sample) verified against the baseline","id":"K3","name":"outputs follow fresh inputs","passed":true},{"detail":"fingerprints of every input before/after run() in 2 rounds","id":"K4","name":"inputs unchanged by run()","passed":true},{"detail":"drain residual after each of 195 samples: median 7.5 us, max 25.9 us","id":"K6","name":"no work left after the window","passed":true},{"detail":"event time within the worker''s wall clock for 229 samples; 46 blocks within the supervisor''s","id":"K7","name":"clocks agree","passed":true},{"detail":"CUPTI activity of the verification runs and 7 audited blocks (34 samples): all work inside the timed windows","id":"K8","name":"all GPU work inside the timed window","passed":true},{"detail":"CUPTI API callbacks in 7 audited blocks (34 samples): no forbidden calls, no CUDA calls from other threads","id":"K9","name":"no escaping API calls","passed":true},{"detail":"not applicable: run() cannot be captured into a CUDA graph (storage (pipelined): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it","id":"K10","name":"capture-replay reproduces the outputs","passed":true},{"detail":"outputs fingerprinted after each audited window and again after quiescence","id":"K11","name":"no deferred writes","passed":true},{"detail":"every harness CUDA call checked; pending errors collected after every request","id":"K12","name":"CUDA errors surface","passed":true},{"detail":"persisting L2 reset before every sample; carve-out and access-policy window checked after run()","id":"K13","name":"L2 hygiene","passed":true},{"detail":"own worker process and process group, one visible GPU, statistics in the supervisor","id":"K14","name":"isolation","passed":true},{"detail":"threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks","id":"K16","name":"process state unchanged","passed":true},{"detail":"achieved throughput below the ceilings from device properties (x1.10 margin)","id":"K17","name":"plausible throughput","passed":true}],"ci_high":1.335820624327257,"ci_low":1.025539348507598,"ci_process_spread":{"df":3,"sd_log":0.028667290711998566},"discarded_samples":0,"energy":{"gpu_busy_s":1.2096204798221586,"joules":185.848,"joules_per_run":0.5798824960970357,"mean_power_w":116.80554123456304,"method":"NVML total-energy counter read before and after each timed block; joules_per_run = mean board power over the blocks x median run time","wall_s":1.591088899},"error":null,"error_kind":"","file":"ch05/optimized_storage_odirect.so","harness_overhead_ms":{"block":1591.088899,"drain":27.819677,"input_refill":35.841522,"l2_flush":28.477267,"nvml":2.300149,"supervisor_block":1824.4060729999997},"informational":"the gain is the GPU copy tail next to the disk time: 10-25% on a ~2 GB/s virtual disk whose reads differ by ~3% from one process to another, a larger share on local NVMe","log":"/tmp/aisp_suite_artifacts/runs/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch/logs/ch05__storage_odirect__storage_odirect.log","memory":{"allocated_mb":24.0,"peak_mb":26.0,"reserved_mb":26.0},"memory_mb":26.0,"memory_savings_pct":0.0,"minimum_required_speedup":1.05,"name":"storage_odirect","p_value":4.25906205187655e-21,"speedup":1.169813268921491,"status":"succeeded","stop_reason":"noise stable at 32.2%","technique":"8 threads pread() with O_DIRECT into 10 pinned 1 MiB slots; GPU DMA overlaps the reads","telemetry":{"block_gpu_ms":[20.98089599609375,16.32591986656189,26.330207586288452,20.53459143638611],"block_wall_ms":[43.878064,19.814567,29.735665,24.271736],"energy_mj":[0.0,0.0,0.0,0.0],"mem_mhz":[2619.0,2619.0,2619.0,2619.0],"power_w":[121.166,121.451,121.451,121.745],"temp_c":[38.0,38.0,38.0,38.0]},"time_ms":4.964511871337891,"timing":{"iterations":195,"max_ms":19.10848045349121,"mean_ms":5.316251565248538,"median_ms":4.964511871337891,"min_ms":3.474720001220703,"p10_ms":4.407692623138428,"p50_ms":4.964511871337891,"p90_ms":6.0364670753479,"p99_ms":13.773867149353038,"rel_noise":0.3218697689242733,"std_ms":1.7111406628498533},"timing_note":"run() waited on the harness stream while it was held (host sync or a full launch queue); samples are taken without the blocking kernel, so they include enqueue latency; informational (the gain is the GPU copy tail next to the disk time: 10-25% on a ~2 GB/s virtual disk whose reads differ by ~3% from one process to another, a larger share on local NVMe): INCONCLUSIVE at 1.170x, not a failure","validity":{"audit_overhead_pct":2.0526472299040144,"audited_blocks":7,"enabled":true,"timed_outputs_verified":7},"verdict":"INCONCLUSIVE","verification":{"atol":1e-08,"compared":4194304,"location":-1,"max_diff":0.0,"max_rel_diff":0.0,"mismatches":0,"output":"","passed":true,"rtol":1e-05,"tolerance_justification":"","unwritten":0},"warmup_iterations":5}');
CREATE TABLE samples (
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,                  -- gpu | wall | audit
  seq INTEGER NOT NULL,
  value_ms REAL,
  PRIMARY KEY (variant_id, kind, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO samples VALUES(1,'audit',0,3.8466560840606689453);
INSERT INTO samples VALUES(1,'audit',1,2.7222080230712890625);
INSERT INTO samples VALUES(1,'audit',2,2.913664102554321289);
INSERT INTO samples VALUES(1,'audit',3,3.7437119483947753906);
INSERT INTO samples VALUES(1,'gpu',0,4.5604162216186523437);
INSERT INTO samples VALUES(1,'gpu',1,4.1237759590148925781);
INSERT INTO samples VALUES(1,'gpu',2,3.0566399097442626953);
INSERT INTO samples VALUES(1,'gpu',3,4.4336638450622558593);
INSERT INTO samples VALUES(1,'gpu',4,3.6941440105438232421);
INSERT INTO samples VALUES(1,'gpu',5,3.6216320991516113281);
INSERT INTO samples VALUES(1,'gpu',6,3.6391038894653320312);
INSERT INTO samples VALUES(1,'gpu',7,3.6373438835144042968);
INSERT INTO samples VALUES(1,'wall',0,4.6408220000000000027);
INSERT INTO samples VALUES(1,'wall',1,4.1906259999999999621);
INSERT INTO samples VALUES(1,'wall',2,3.1143350000000000754);
INSERT INTO samples VALUES(1,'wall',3,4.4873120000000001894);
INSERT INTO samples VALUES(1,'wall',4,3.7455959999999999254);
INSERT INTO samples VALUES(1,'wall',5,3.6713059999999999583);
INSERT INTO samples VALUES(1,'wall',6,3.7216749999999998443);
INSERT INTO samples VALUES(1,'wall',7,3.7111070000000001556);
INSERT INTO samples VALUES(2,'audit',0,2.0639040470123291015);
INSERT INTO samples VALUES(2,'audit',1,1.979071974754333496);
INSERT INTO samples VALUES(2,'audit',2,1.9764800071716308593);
INSERT INTO samples VALUES(2,'audit',3,2.165760040283203125);
INSERT INTO samples VALUES(2,'gpu',0,2.3524799346923828125);
INSERT INTO samples VALUES(2,'gpu',1,2.1112000942230224609);
INSERT INTO samples VALUES(2,'gpu',2,2.1253440380096435546);
INSERT INTO samples VALUES(2,'gpu',3,2.1079039573669433593);
INSERT INTO samples VALUES(2,'gpu',4,2.0474879741668701171);
INSERT INTO samples VALUES(2,'gpu',5,2.0638720989227294921);
INSERT INTO samples VALUES(2,'gpu',6,2.0010240077972412109);
INSERT INTO samples VALUES(2,'gpu',7,2.0424959659576416015);
INSERT INTO samples VALUES(2,'wall',0,2.4166120000000002043);
INSERT INTO samples VALUES(2,'wall',1,2.1408220000000000027);
INSERT INTO samples VALUES(2,'wall',2,2.1607789999999997831);
INSERT INTO samples VALUES(2,'wall',3,2.1397599999999998843);
INSERT INTO samples VALUES(2,'wall',4,2.0868609999999998549);
INSERT INTO samples VALUES(2,'wall',5,2.0933589999999999697);
INSERT INTO samples VALUES(2,'wall',6,2.0321699999999998098);
INSERT INTO samples VALUES(2,'wall',7,2.0721829999999998861);
INSERT INTO samples VALUES(3,'audit',0,7.4115519523620605468);
INSERT INTO samples VALUES(3,'audit',1,6.7445120811462402343);
INSERT INTO samples VALUES(3,'audit',2,7.0971198081970214843);
INSERT INTO samples VALUES(3,'audit',3,7.3125119209289550781);
INSERT INTO samples VALUES(3,'gpu',0,5.6179838180541992187);
INSERT INTO samples VALUES(3,'gpu',1,5.1965122222900390625);
INSERT INTO samples VALUES(3,'gpu',2,4.4616641998291015625);
INSERT INTO samples VALUES(3,'gpu',3,4.2647042274475097656);
INSERT INTO samples VALUES(3,'gpu',4,4.0901441574096679687);
INSERT INTO samples VALUES(3,'gpu',5,4.8663678169250488281);
INSERT INTO samples VALUES(3,'gpu',6,5.2564158439636230468);
INSERT INTO samples VALUES(3,'gpu',7,5.0823678970336914062);
INSERT INTO samples VALUES(3,'wall',0,5.6271789999999999309);
INSERT INTO samples VALUES(3,'wall',1,5.203337000000000323);
INSERT INTO samples VALUES(3,'wall',2,4.4683289999999997732);
INSERT INTO samples VALUES(3,'wall',3,4.2722509999999997987);
INSERT INTO samples VALUES(3,'wall',4,4.0969179999999996155);
INSERT INTO samples VALUES(3,'wall',5,4.8751959999999998629);
INSERT INTO samples VALUES(3,'wall',6,5.2646059999999996747);
INSERT INTO samples VALUES(3,'wall',7,5.0906390000000003581);
INSERT INTO samples VALUES(4,'audit',0,5.654399871826171875);
INSERT INTO samples VALUES(4,'audit',1,4.9358720779418945312);
INSERT INTO samples VALUES(4,'audit',2,4.9546561241149902343);
INSERT INTO samples VALUES(4,'audit',3,5.4359679222106933593);
INSERT INTO samples VALUES(4,'gpu',0,4.5369601249694824218);
INSERT INTO samples VALUES(4,'gpu',1,4.0812158584594726562);
INSERT INTO samples VALUES(4,'gpu',2,3.9021759033203125);
INSERT INTO samples VALUES(4,'gpu',3,3.8055679798126220703);
INSERT INTO samples VALUES(4,'gpu',4,4.5347838401794433593);
INSERT INTO samples VALUES(4,'gpu',5,3.9371840953826904296);
INSERT INTO samples VALUES(4,'gpu',6,4.8939199447631835937);
INSERT INTO samples VALUES(4,'gpu',7,4.4886078834533691406);
INSERT INTO samples VALUES(4,'wall',0,4.5518609999999997128);
INSERT INTO samples VALUES(4,'wall',1,4.0894690000000002427);
INSERT INTO samples VALUES(4,'wall',2,3.9105850000000001998);
INSERT INTO samples VALUES(4,'wall',3,3.8131149999999998101);
INSERT INTO samples VALUES(4,'wall',4,4.5459030000000000271);
INSERT INTO samples VALUES(4,'wall',5,3.9441950000000001175);
INSERT INTO samples VALUES(4,'wall',6,4.9018899999999998584);
INSERT INTO samples VALUES(4,'wall',7,4.496960999999999764);
INSERT INTO samples VALUES(5,'audit',0,3.8466560840606689453);
INSERT INTO samples VALUES(5,'audit',1,2.7222080230712890625);
INSERT INTO samples VALUES(5,'audit',2,2.913664102554321289);
INSERT INTO samples VALUES(5,'audit',3,3.7437119483947753906);
INSERT INTO samples VALUES(5,'gpu',0,4.5604162216186523437);
INSERT INTO samples VALUES(5,'gpu',1,4.1237759590148925781);
INSERT INTO samples VALUES(5,'gpu',2,3.0566399097442626953);
INSERT INTO samples VALUES(5,'gpu',3,4.4336638450622558593);
INSERT INTO samples VALUES(5,'gpu',4,3.6941440105438232421);
INSERT INTO samples VALUES(5,'gpu',5,3.6216320991516113281);
INSERT INTO samples VALUES(5,'gpu',6,3.6391038894653320312);
INSERT INTO samples VALUES(5,'gpu',7,3.6373438835144042968);
INSERT INTO samples VALUES(5,'wall',0,4.6408220000000000027);
INSERT INTO samples VALUES(5,'wall',1,4.1906259999999999621);
INSERT INTO samples VALUES(5,'wall',2,3.1143350000000000754);
INSERT INTO samples VALUES(5,'wall',3,4.4873120000000001894);
INSERT INTO samples VALUES(5,'wall',4,3.7455959999999999254);
INSERT INTO samples VALUES(5,'wall',5,3.6713059999999999583);
INSERT INTO samples VALUES(5,'wall',6,3.7216749999999998443);
INSERT INTO samples VALUES(5,'wall',7,3.7111070000000001556);
INSERT INTO samples VALUES(6,'audit',0,2.0639040470123291015);
INSERT INTO samples VALUES(6,'audit',1,1.979071974754333496);
INSERT INTO samples VALUES(6,'audit',2,1.9764800071716308593);
INSERT INTO samples VALUES(6,'audit',3,2.165760040283203125);
INSERT INTO samples VALUES(6,'gpu',0,2.3524799346923828125);
INSERT INTO samples VALUES(6,'gpu',1,2.1112000942230224609);
INSERT INTO samples VALUES(6,'gpu',2,2.1253440380096435546);
INSERT INTO samples VALUES(6,'gpu',3,2.1079039573669433593);
INSERT INTO samples VALUES(6,'gpu',4,2.0474879741668701171);
INSERT INTO samples VALUES(6,'gpu',5,2.0638720989227294921);
INSERT INTO samples VALUES(6,'gpu',6,2.0010240077972412109);
INSERT INTO samples VALUES(6,'gpu',7,2.0424959659576416015);
INSERT INTO samples VALUES(6,'wall',0,2.4166120000000002043);
INSERT INTO samples VALUES(6,'wall',1,2.1408220000000000027);
INSERT INTO samples VALUES(6,'wall',2,2.1607789999999997831);
INSERT INTO samples VALUES(6,'wall',3,2.1397599999999998843);
INSERT INTO samples VALUES(6,'wall',4,2.0868609999999998549);
INSERT INTO samples VALUES(6,'wall',5,2.0933589999999999697);
INSERT INTO samples VALUES(6,'wall',6,2.0321699999999998098);
INSERT INTO samples VALUES(6,'wall',7,2.0721829999999998861);
INSERT INTO samples VALUES(7,'audit',0,7.4115519523620605468);
INSERT INTO samples VALUES(7,'audit',1,6.7445120811462402343);
INSERT INTO samples VALUES(7,'audit',2,7.0971198081970214843);
INSERT INTO samples VALUES(7,'audit',3,7.3125119209289550781);
INSERT INTO samples VALUES(7,'gpu',0,5.6179838180541992187);
INSERT INTO samples VALUES(7,'gpu',1,5.1965122222900390625);
INSERT INTO samples VALUES(7,'gpu',2,4.4616641998291015625);
INSERT INTO samples VALUES(7,'gpu',3,4.2647042274475097656);
INSERT INTO samples VALUES(7,'gpu',4,4.0901441574096679687);
INSERT INTO samples VALUES(7,'gpu',5,4.8663678169250488281);
INSERT INTO samples VALUES(7,'gpu',6,5.2564158439636230468);
INSERT INTO samples VALUES(7,'gpu',7,5.0823678970336914062);
INSERT INTO samples VALUES(7,'wall',0,5.6271789999999999309);
INSERT INTO samples VALUES(7,'wall',1,5.203337000000000323);
INSERT INTO samples VALUES(7,'wall',2,4.4683289999999997732);
INSERT INTO samples VALUES(7,'wall',3,4.2722509999999997987);
INSERT INTO samples VALUES(7,'wall',4,4.0969179999999996155);
INSERT INTO samples VALUES(7,'wall',5,4.8751959999999998629);
INSERT INTO samples VALUES(7,'wall',6,5.2646059999999996747);
INSERT INTO samples VALUES(7,'wall',7,5.0906390000000003581);
INSERT INTO samples VALUES(8,'audit',0,5.654399871826171875);
INSERT INTO samples VALUES(8,'audit',1,4.9358720779418945312);
INSERT INTO samples VALUES(8,'audit',2,4.9546561241149902343);
INSERT INTO samples VALUES(8,'audit',3,5.4359679222106933593);
INSERT INTO samples VALUES(8,'gpu',0,4.5369601249694824218);
INSERT INTO samples VALUES(8,'gpu',1,4.0812158584594726562);
INSERT INTO samples VALUES(8,'gpu',2,3.9021759033203125);
INSERT INTO samples VALUES(8,'gpu',3,3.8055679798126220703);
INSERT INTO samples VALUES(8,'gpu',4,4.5347838401794433593);
INSERT INTO samples VALUES(8,'gpu',5,3.9371840953826904296);
INSERT INTO samples VALUES(8,'gpu',6,4.8939199447631835937);
INSERT INTO samples VALUES(8,'gpu',7,4.4886078834533691406);
INSERT INTO samples VALUES(8,'wall',0,4.5518609999999997128);
INSERT INTO samples VALUES(8,'wall',1,4.0894690000000002427);
INSERT INTO samples VALUES(8,'wall',2,3.9105850000000001998);
INSERT INTO samples VALUES(8,'wall',3,3.8131149999999998101);
INSERT INTO samples VALUES(8,'wall',4,4.5459030000000000271);
INSERT INTO samples VALUES(8,'wall',5,3.9441950000000001175);
INSERT INTO samples VALUES(8,'wall',6,4.9018899999999998584);
INSERT INTO samples VALUES(8,'wall',7,4.496960999999999764);
CREATE TABLE checks (
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  check_id TEXT, name TEXT, passed INTEGER, detail TEXT,
  PRIMARY KEY (variant_id, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO checks VALUES(1,0,'K3','outputs follow fresh inputs',1,'; 3 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(1,1,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(1,2,'K6','no work left after the window',1,'drain residual after each of 36 samples: median 5.2 us, max 21.3 us');
INSERT INTO checks VALUES(1,3,'K7','clocks agree',1,'event time within the worker''s wall clock for 54 samples; 9 blocks within the supervisor''s');
INSERT INTO checks VALUES(1,4,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 3 audited blocks (18 samples): all work inside the timed windows');
INSERT INTO checks VALUES(1,5,'K9','no escaping API calls',1,'CUPTI API callbacks in 3 audited blocks (18 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(1,6,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param("n") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it');
INSERT INTO checks VALUES(1,7,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(1,8,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(1,9,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(1,10,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(1,11,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(1,12,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(2,0,'K1','outputs fully written',1,'outputs poisoned before 2 verified runs; no poison survived');
INSERT INTO checks VALUES(2,1,'K2','outputs match the baseline',1,'8388608 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)');
INSERT INTO checks VALUES(2,2,'K3','outputs follow fresh inputs',1,'2 rounds, each with a fresh seed drawn after setup; 4 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(2,3,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(2,4,'K6','no work left after the window',1,'drain residual after each of 34 samples: median 3.4 us, max 6.8 us');
INSERT INTO checks VALUES(2,5,'K7','clocks agree',1,'event time within the worker''s wall clock for 79 samples; 7 blocks within the supervisor''s');
INSERT INTO checks VALUES(2,6,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 4 audited blocks (45 samples): all work inside the timed windows');
INSERT INTO checks VALUES(2,7,'K9','no escaping API calls',1,'CUPTI API callbacks in 4 audited blocks (45 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(2,8,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param("n") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it');
INSERT INTO checks VALUES(2,9,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(2,10,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(2,11,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(2,12,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(2,13,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(2,14,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(3,0,'K3','outputs follow fresh inputs',1,'; 7 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(3,1,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(3,2,'K6','no work left after the window',1,'drain residual after each of 167 samples: median 7.3 us, max 29.0 us');
INSERT INTO checks VALUES(3,3,'K7','clocks agree',1,'event time within the worker''s wall clock for 197 samples; 48 blocks within the supervisor''s');
INSERT INTO checks VALUES(3,4,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 7 audited blocks (30 samples): all work inside the timed windows');
INSERT INTO checks VALUES(3,5,'K9','no escaping API calls',1,'CUPTI API callbacks in 7 audited blocks (30 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(3,6,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (storage (synchronous): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it');
INSERT INTO checks VALUES(3,7,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(3,8,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(3,9,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(3,10,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(3,11,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(3,12,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(4,0,'K1','outputs fully written',1,'outputs poisoned before 2 verified runs; no poison survived');
INSERT INTO checks VALUES(4,1,'K2','outputs match the baseline',1,'4194304 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)');
INSERT INTO checks VALUES(4,2,'K3','outputs follow fresh inputs',1,'2 rounds, each with a fresh seed drawn after setup; 7 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(4,3,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(4,4,'K6','no work left after the window',1,'drain residual after each of 195 samples: median 7.5 us, max 25.9 us');
INSERT INTO checks VALUES(4,5,'K7','clocks agree',1,'event time within the worker''s wall clock for 229 samples; 46 blocks within the supervisor''s');
INSERT INTO checks VALUES(4,6,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 7 audited blocks (34 samples): all work inside the timed windows');
INSERT INTO checks VALUES(4,7,'K9','no escaping API calls',1,'CUPTI API callbacks in 7 audited blocks (34 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(4,8,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (storage (pipelined): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it');
INSERT INTO checks VALUES(4,9,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(4,10,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(4,11,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(4,12,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(4,13,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(4,14,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(5,0,'K3','outputs follow fresh inputs',1,'; 3 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(5,1,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(5,2,'K6','no work left after the window',1,'drain residual after each of 36 samples: median 5.2 us, max 21.3 us');
INSERT INTO checks VALUES(5,3,'K7','clocks agree',1,'event time within the worker''s wall clock for 54 samples; 9 blocks within the supervisor''s');
INSERT INTO checks VALUES(5,4,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 3 audited blocks (18 samples): all work inside the timed windows');
INSERT INTO checks VALUES(5,5,'K9','no escaping API calls',1,'CUPTI API callbacks in 3 audited blocks (18 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(5,6,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param("n") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it');
INSERT INTO checks VALUES(5,7,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(5,8,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(5,9,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(5,10,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(5,11,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(5,12,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(6,0,'K1','outputs fully written',1,'outputs poisoned before 2 verified runs; no poison survived');
INSERT INTO checks VALUES(6,1,'K2','outputs match the baseline',1,'8388608 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)');
INSERT INTO checks VALUES(6,2,'K3','outputs follow fresh inputs',1,'2 rounds, each with a fresh seed drawn after setup; 4 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(6,3,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(6,4,'K6','no work left after the window',1,'drain residual after each of 34 samples: median 3.4 us, max 6.8 us');
INSERT INTO checks VALUES(6,5,'K7','clocks agree',1,'event time within the worker''s wall clock for 79 samples; 7 blocks within the supervisor''s');
INSERT INTO checks VALUES(6,6,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 4 audited blocks (45 samples): all work inside the timed windows');
INSERT INTO checks VALUES(6,7,'K9','no escaping API calls',1,'CUPTI API callbacks in 4 audited blocks (45 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(6,8,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (/work/main/chapters/ch02/managed_prefetch.cuh:91: cudaMemPrefetchAsync(data, ctx.param("n") * sizeof(float), host_location(), 0, ctx.stream()): cudaErrorStreamCaptureUnsupported (operation not permitted when stream is capturing)); K8''s audit covers it');
INSERT INTO checks VALUES(6,9,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(6,10,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(6,11,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(6,12,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(6,13,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(6,14,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(7,0,'K3','outputs follow fresh inputs',1,'; 7 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(7,1,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(7,2,'K6','no work left after the window',1,'drain residual after each of 167 samples: median 7.3 us, max 29.0 us');
INSERT INTO checks VALUES(7,3,'K7','clocks agree',1,'event time within the worker''s wall clock for 197 samples; 48 blocks within the supervisor''s');
INSERT INTO checks VALUES(7,4,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 7 audited blocks (30 samples): all work inside the timed windows');
INSERT INTO checks VALUES(7,5,'K9','no escaping API calls',1,'CUPTI API callbacks in 7 audited blocks (30 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(7,6,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (storage (synchronous): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it');
INSERT INTO checks VALUES(7,7,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(7,8,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(7,9,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(7,10,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(7,11,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(7,12,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
INSERT INTO checks VALUES(8,0,'K1','outputs fully written',1,'outputs poisoned before 2 verified runs; no poison survived');
INSERT INTO checks VALUES(8,1,'K2','outputs match the baseline',1,'4194304 elements, 0 mismatches, max abs err 0, max rel err 0 (rtol 1e-05, atol 1e-08)');
INSERT INTO checks VALUES(8,2,'K3','outputs follow fresh inputs',1,'2 rounds, each with a fresh seed drawn after setup; 7 timed samples (fresh inputs before every sample) verified against the baseline');
INSERT INTO checks VALUES(8,3,'K4','inputs unchanged by run()',1,'fingerprints of every input before/after run() in 2 rounds');
INSERT INTO checks VALUES(8,4,'K6','no work left after the window',1,'drain residual after each of 195 samples: median 7.5 us, max 25.9 us');
INSERT INTO checks VALUES(8,5,'K7','clocks agree',1,'event time within the worker''s wall clock for 229 samples; 46 blocks within the supervisor''s');
INSERT INTO checks VALUES(8,6,'K8','all GPU work inside the timed window',1,'CUPTI activity of the verification runs and 7 audited blocks (34 samples): all work inside the timed windows');
INSERT INTO checks VALUES(8,7,'K9','no escaping API calls',1,'CUPTI API callbacks in 7 audited blocks (34 samples): no forbidden calls, no CUDA calls from other threads');
INSERT INTO checks VALUES(8,8,'K10','capture-replay reproduces the outputs',1,'not applicable: run() cannot be captured into a CUDA graph (storage (pipelined): run() does host work (copies, reads) between CUDA calls; it cannot be captured into a CUDA graph); K8''s audit covers it');
INSERT INTO checks VALUES(8,9,'K11','no deferred writes',1,'outputs fingerprinted after each audited window and again after quiescence');
INSERT INTO checks VALUES(8,10,'K12','CUDA errors surface',1,'every harness CUDA call checked; pending errors collected after every request');
INSERT INTO checks VALUES(8,11,'K13','L2 hygiene',1,'persisting L2 reset before every sample; carve-out and access-policy window checked after run()');
INSERT INTO checks VALUES(8,12,'K14','isolation',1,'own worker process and process group, one visible GPU, statistics in the supervisor');
INSERT INTO checks VALUES(8,13,'K16','process state unchanged',1,'threads, current device, limits, cuBLAS math mode compared around verified runs and audited blocks');
INSERT INTO checks VALUES(8,14,'K17','plausible throughput',1,'achieved throughput below the ceilings from device properties (x1.10 margin)');
CREATE TABLE telemetry (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target TEXT NOT NULL DEFAULT '',     -- '' = run level (the manifest's hardware snapshot)
  variant TEXT NOT NULL DEFAULT '',
  metric TEXT NOT NULL,                -- sm_mhz, mem_mhz, temp_c, power_w, ...
  seq INTEGER NOT NULL,
  value REAL,
  PRIMARY KEY (run_id, target, variant, metric, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO telemetry VALUES(1,'','','gpu_clock_max_mhz',0,1980.0);
INSERT INTO telemetry VALUES(1,'','','gpu_clock_mhz',0,345.0);
INSERT INTO telemetry VALUES(1,'','','memory_clock_mhz',0,2619.0);
INSERT INTO telemetry VALUES(1,'','','power_limit_w',0,700.0);
INSERT INTO telemetry VALUES(1,'','','temperature_gpu_c',0,36.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_gpu_ms',0,20.588512182235717772);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_gpu_ms',1,23.490272045135498046);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_gpu_ms',2,20.135167837142944335);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_gpu_ms',3,20.497344017028808593);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_wall_ms',0,58.523848999999998456);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_wall_ms',1,27.784226000000000311);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_wall_ms',2,62.579732999999997389);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','block_wall_ms',3,24.824156999999999583);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','energy_mj',1,12308.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','energy_mj',2,12971.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','power_w',0,126.07500000000000284);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','power_w',1,128.30099999999998772);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','power_w',2,128.53899999999998726);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','power_w',3,126.12000000000000454);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','temp_c',0,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','temp_c',1,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','temp_c',2,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','baseline','temp_c',3,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',0,21.423967838287353514);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',1,29.82134413719177246);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',2,23.090688228607177735);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',3,26.0708162784576416);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',0,84.227504999999993628);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',1,92.576926999999997747);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',2,27.945980999999999738);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',3,30.666413999999999617);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','energy_mj',0,12064.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','energy_mj',1,12044.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','energy_mj',2,0.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','power_w',0,126.86899999999999977);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','power_w',1,127.66500000000000625);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','power_w',2,128.53899999999998726);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','power_w',3,126.12000000000000454);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','temp_c',0,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','temp_c',1,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','temp_c',2,37.0);
INSERT INTO telemetry VALUES(1,'ch02:managed_prefetch','managed_prefetch','temp_c',3,37.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_gpu_ms',0,35.435807704925537109);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_gpu_ms',1,23.631008625030517577);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_gpu_ms',2,24.290431499481201171);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_gpu_ms',3,28.883711814880371093);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_wall_ms',0,60.152839000000000169);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_wall_ms',1,26.871894999999998531);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_wall_ms',2,30.171762999999998556);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','block_wall_ms',3,51.724043999999999242);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','energy_mj',1,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','energy_mj',2,12350.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','energy_mj',3,12457.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','power_w',0,121.02100000000000079);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','power_w',1,121.4509999999999934);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','power_w',2,121.4509999999999934);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','power_w',3,121.74500000000000454);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','temp_c',0,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','temp_c',1,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','temp_c',2,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','baseline','temp_c',3,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_gpu_ms',0,20.98089599609375);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_gpu_ms',1,16.325919866561889648);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_gpu_ms',2,26.330207586288452148);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_gpu_ms',3,20.534591436386108397);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_wall_ms',0,43.878064000000001954);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_wall_ms',1,19.814567000000000263);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_wall_ms',2,29.735665000000000902);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','block_wall_ms',3,24.271736000000000642);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','energy_mj',1,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','energy_mj',2,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','power_w',0,121.16599999999999681);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','power_w',1,121.4509999999999934);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','power_w',2,121.4509999999999934);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','power_w',3,121.74500000000000454);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','temp_c',0,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','temp_c',1,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','temp_c',2,38.0);
INSERT INTO telemetry VALUES(1,'ch05:storage_odirect','storage_odirect','temp_c',3,38.0);
INSERT INTO telemetry VALUES(2,'','','gpu_clock_max_mhz',0,1980.0);
INSERT INTO telemetry VALUES(2,'','','gpu_clock_mhz',0,345.0);
INSERT INTO telemetry VALUES(2,'','','memory_clock_mhz',0,2619.0);
INSERT INTO telemetry VALUES(2,'','','power_limit_w',0,700.0);
INSERT INTO telemetry VALUES(2,'','','temperature_gpu_c',0,36.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_gpu_ms',0,20.588512182235717772);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_gpu_ms',1,23.490272045135498046);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_gpu_ms',2,20.135167837142944335);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_gpu_ms',3,20.497344017028808593);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_wall_ms',0,58.523848999999998456);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_wall_ms',1,27.784226000000000311);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_wall_ms',2,62.579732999999997389);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','block_wall_ms',3,24.824156999999999583);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','energy_mj',1,12308.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','energy_mj',2,12971.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','power_w',0,126.07500000000000284);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','power_w',1,128.30099999999998772);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','power_w',2,128.53899999999998726);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','power_w',3,126.12000000000000454);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','sm_mhz',0,1980.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','sm_mhz',1,1975.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','sm_mhz',2,1980.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','sm_mhz',3,1965.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','temp_c',0,50.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','temp_c',1,51.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','temp_c',2,52.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','baseline','temp_c',3,53.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',0,21.423967838287353514);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',1,29.82134413719177246);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',2,23.090688228607177735);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_gpu_ms',3,26.0708162784576416);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',0,84.227504999999993628);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',1,92.576926999999997747);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',2,27.945980999999999738);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','block_wall_ms',3,30.666413999999999617);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','energy_mj',0,12064.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','energy_mj',1,12044.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','energy_mj',2,0.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','power_w',0,126.86899999999999977);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','power_w',1,127.66500000000000625);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','power_w',2,128.53899999999998726);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','power_w',3,126.12000000000000454);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','temp_c',0,37.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','temp_c',1,37.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','temp_c',2,37.0);
INSERT INTO telemetry VALUES(2,'ch02:managed_prefetch','managed_prefetch','temp_c',3,37.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_gpu_ms',0,35.435807704925537109);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_gpu_ms',1,23.631008625030517577);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_gpu_ms',2,24.290431499481201171);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_gpu_ms',3,28.883711814880371093);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_wall_ms',0,60.152839000000000169);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_wall_ms',1,26.871894999999998531);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_wall_ms',2,30.171762999999998556);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','block_wall_ms',3,51.724043999999999242);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','energy_mj',1,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','energy_mj',2,12350.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','energy_mj',3,12457.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','power_w',0,121.02100000000000079);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','power_w',1,121.4509999999999934);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','power_w',2,121.4509999999999934);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','power_w',3,121.74500000000000454);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','temp_c',0,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','temp_c',1,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','temp_c',2,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','baseline','temp_c',3,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_gpu_ms',0,20.98089599609375);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_gpu_ms',1,16.325919866561889648);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_gpu_ms',2,26.330207586288452148);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_gpu_ms',3,20.534591436386108397);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_wall_ms',0,43.878064000000001954);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_wall_ms',1,19.814567000000000263);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_wall_ms',2,29.735665000000000902);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','block_wall_ms',3,24.271736000000000642);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','energy_mj',0,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','energy_mj',1,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','energy_mj',2,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','energy_mj',3,0.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','mem_mhz',0,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','mem_mhz',1,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','mem_mhz',2,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','mem_mhz',3,2619.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','power_w',0,121.16599999999999681);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','power_w',1,121.4509999999999934);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','power_w',2,121.4509999999999934);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','power_w',3,121.74500000000000454);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','temp_c',0,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','temp_c',1,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','temp_c',2,38.0);
INSERT INTO telemetry VALUES(2,'ch05:storage_odirect','storage_odirect','temp_c',3,38.0);
CREATE TABLE profiles (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  tool TEXT NOT NULL,                  -- ncu | compute-sanitizer
  preset TEXT NOT NULL DEFAULT '',     -- ncu: minimal | roofline | deep_dive; sanitizer: its tool
  target TEXT NOT NULL, variant TEXT NOT NULL,
  hardware_key TEXT, gpu_model TEXT,
  bench_run TEXT NOT NULL DEFAULT '',
  ok INTEGER NOT NULL,
  findings INTEGER,                    -- sanitizer errors; NULL for ncu
  dir TEXT,
  doc TEXT NOT NULL
) STRICT;
CREATE TABLE profile_metrics (
  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  kernel_seq INTEGER NOT NULL,
  kernel TEXT NOT NULL,
  metric TEXT NOT NULL,
  unit TEXT,
  value REAL,
  PRIMARY KEY (profile_id, kernel_seq, metric)
) STRICT, WITHOUT ROWID;
CREATE INDEX targets_by_name ON targets(target, run_id);
CREATE INDEX profiles_by_target ON profiles(target, variant, tool, id);
COMMIT;
PRAGMA user_version = 3;
