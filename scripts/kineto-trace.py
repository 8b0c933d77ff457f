#!/usr/bin/env python3
"""Writes a PyTorch Profiler (Kineto) trace whose measurements it knows exactly, for the tests of
`pipesim trace-import` and for `make bench` (issue 28). DeepSeek's own profile
(deepseek-ai/profile-data train.json) has no licence, so the lab tests with this one instead.

The trace has the shape Kineto writes (pytorch/kineto libkineto/src/output_json.cpp): an object
with schemaVersion, deviceProperties and traceEvents. Per device a CPU process whose main thread
holds the user annotations (ProfilerStep#N > 1F1B > one per part of each layer, named as DeepSeek
names them: attn(F), dispatch(B), mlp(W), ...) and whose second thread (the autograd engine's)
launches the backward parts' kernels, as in DeepSeek's profile; a cpu_op and a cuda_runtime
launch with args.correlation per kernel; kernels on a compute stream (7), a second compute
stream (23) and a communication stream (27) with args.device, args.stream and args.correlation;
an ac2g flow from each launch to its kernel; a memcpy, a kernel launched outside every
annotation, gpu_user_annotation events, metadata and instant events.

GPU times follow DeepSeek-V3 Fig. 4's overlapped chunk pair: per layer ten parts, each starting
when its stream is free and its inputs are done (the dependencies of core's communication model,
pipesim/comm.h), the kernels of a part back to back with a gap between them. Times are whole
nanoseconds written as microseconds with three decimals, so every sum is exact.

--expect FILE writes what trace-import must report (streams, devices, overlap, annotations,
unattributed, order, spans, derived costs), worked out here from the kernels this script placed.
--variant NAME writes a small hostile trace instead (VARIANTS), and --expect then the error or
the effect trace-import must report.
"""
import argparse
import json
import sys

BASE_US = 1740461679470000  # an absolute clock in microseconds, as CUPTI's (and DeepSeek's) is
COMPUTE, SIDE, COMM = 7, 23, 27
PARTS = ['attn(F)', 'dispatch(F)', 'mlp(F)', 'combine(F)', 'attn(B)', 'attn(W)', 'dispatch(B)', 'mlp(B)', 'mlp(W)',
         'combine(B)']  # the order of core's ChunkComponents
COMM_PATTERN = ['nccl', 'deep_ep::', 'dpsk::ep::']  # core's default (pipesim/trace.h)
# One layer in the order DeepSeek's code issues it (train.json's CPU order): each part's stream
# and the parts it waits for, as (name, layer offset).
ISSUE = [('combine(B)', COMM, [('attn(B)', -1)]),
         ('attn(F)', COMPUTE, [('combine(F)', -1)]),
         ('mlp(B)', COMPUTE, [('combine(B)', 0)]),
         ('dispatch(F)', COMM, [('attn(F)', 0)]),
         ('dispatch(B)', COMM, [('mlp(B)', 0)]),
         ('mlp(W)', COMPUTE, [('combine(B)', 0)]),
         ('mlp(F)', COMPUTE, [('dispatch(F)', 0)]),
         ('attn(B)', COMPUTE, [('dispatch(B)', 0)]),
         ('attn(W)', COMPUTE, [('dispatch(B)', 0)]),
         ('combine(F)', COMM, [('mlp(F)', 0)])]
BACKWARD = {'combine(B)', 'mlp(B)', 'dispatch(B)', 'mlp(W)', 'attn(B)', 'attn(W)'}
# Each part's kernels: (stream, name, ns). Device d adds d ns to every kernel, so pairs differ.
KERNELS = {
    'attn(F)': [(COMPUTE, 'void flash::compute_attn_ws<Flash_fwd_kernel_traits<192, 128, 128, 12, 2, false, 1>>(Flash_fwd_params)', 812_345),
                (COMPUTE, 'void layer_norm::ln_fwd_kernel<layer_norm::Kernel_traits<__nv_bfloat16, __nv_bfloat16, float>>(layer_norm::FwdParams)', 96_001),
                (COMPUTE, 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel', 1_400_250)],
    'mlp(F)': [(COMPUTE, 'void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel::Params)', 1_250_500),
               (COMPUTE, 'void cuda::swiglu_forward_with_weight_impl<__nv_bfloat16>(void const*, void*, float const*, int, int)', 210_007)],
    'attn(B)': [(COMPUTE, 'void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<2, cute::tuple<cute::C<64>>>>>(flash::Params)', 2_300_111),
                (COMPUTE, 'void layer_norm::ln_bwd_kernel<layer_norm::Kernel_traits<__nv_bfloat16, __nv_bfloat16, float>>(layer_norm::BwdParams)', 420_333)],
    'attn(W)': [(COMPUTE, 'sm90_xmma_gemm_bf16f32_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel', 605_005)],
    'mlp(B)': [(COMPUTE, 'void cutlass::device_kernel<dpsk::grouped_gemm::cuda::m_grouped_fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::cuda::Params)', 1_500_001),
               (COMPUTE, 'void cuda::swiglu_backward<__nv_bfloat16>(void const*, void const*, void*, int, int)', 333_333)],
    # mlp(W) also runs a GEMM on a second compute stream, beside its first kernel
    'mlp(W)': [(COMPUTE, 'void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_dptp128c_acc::GemmKernel>(dpsk::grouped_gemm::cuda::Params)', 1_700_500),
               (COMPUTE, 'void cuda::per_channel_cast_and_transpose<256, 128, false, false, false, false, false>(void const*, unsigned char*, int)', 150_250),
               (SIDE, 'void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_dptp128c_acc::GemmKernel>(dpsk::grouped_gemm::cuda::Params)', 1_200_000)],
    # a dispatch first casts to FP8 on the communication stream: a computation kernel, as HTA types it
    'dispatch(F)': [(COMM, 'void cuda::per_token_cast_to_fp8_with_channels<__nv_bfloat16, 128, false, 128, false>(__nv_bfloat16 const*, int)', 52_000),
                    (COMM, 'void deep_ep::internode::dispatch<false, 8, true, 8>(int4*, float*, long*, float*, deep_ep::SourceMeta*)', 2_900_777)],
    'combine(F)': [(COMM, 'void deep_ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, float*, bool*, int4 const*)', 2_400_123)],
    'dispatch(B)': [(COMM, 'void deep_ep::internode::dispatch<false, 8, false, 8>(int4*, float*, long*, float*, deep_ep::SourceMeta*)', 1_900_101)],
    'combine(B)': [(COMM, 'ncclDevKernel_AllToAll_RING_LL(ncclDevComm*, unsigned long, ncclWork*)', 1_800_999)],
}
STRAY = (COMPUTE, 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, at::native::FillFunctor<float>)', 4_321)
GAP_NS = 1_250          # between two kernels of one part on one stream
CPU_LAUNCH_NS = 7_500   # host time per launch
STEP_GAP_NS = 50_000    # GPU idle time between two profiler steps
MEMCPY_NS = 1_003


def us(ns):
    """Nanoseconds since BASE_US as Kineto writes microseconds: three decimals."""
    total = BASE_US * 1000 + ns
    return f'{total // 1000}.{total % 1000:03d}'


def dur(ns):
    return f'{ns // 1000}.{ns % 1000:03d}'


def kind_of(name, cat):
    if cat != 'kernel':
        return 'memory'
    return 'comm' if any(p in name for p in COMM_PATTERN) else 'compute'


def merged(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def length(intervals):
    return sum(b - a for a, b in merged(intervals))


def both(xs, ys):
    """Time inside both unions: a walk along the two, each in order."""
    xs, ys, total, i, j = merged(xs), merged(ys), 0, 0, 0
    while i < len(xs) and j < len(ys):
        total += max(0, min(xs[i][1], ys[j][1]) - max(xs[i][0], ys[j][0]))
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return total


def round_half_away(numerator, denominator):
    return (2 * numerator + denominator) // (2 * denominator)


class Trace:
    """Places and writes every event; keeps what the expectations need."""

    def __init__(self, out, with_correlation=True):
        self.out = out            # a file, or None to keep the events in self.events
        self.events = []
        self.count = 0
        self.bytes = 0
        self.with_correlation = with_correlation
        self.correlation = 100_000
        self.gpu = []          # {device, stream, start, end, kind, holders, leaf, correlation}
        self.annotations = []  # (name, start, event index)
        self.leaves = []       # the part annotations: {name, cpu, event, pair}
        self.pairs = 0         # (device, profiler step) pairs written
        self.pair_keys = []    # per pair: (device, step number, ProfilerStep name)

    def event(self, text):
        if self.out is None:
            self.events.append(text)
        else:
            piece = ('' if self.count == 0 else ',\n  ') + text
            self.out.write(piece)
            self.bytes += len(piece)
        self.count += 1
        return self.count - 1

    def annotate(self, name, pid, tid, start, end):
        index = self.event(f'{{"ph": "X", "cat": "user_annotation", "name": {json.dumps(name)}, "pid": {pid}, '
                           f'"tid": {tid}, "ts": {us(start)}, "dur": {dur(end - start)}, '
                           f'"args": {{"External id": {self.correlation}, "Ev Idx": {self.count}}}}}')
        self.correlation += 1
        self.annotations.append((name, start, index))
        return index

    def launch(self, device, pid, tid, cpu_ts, stream, name, start, ns, holders, leaf=None, cat='kernel'):
        """A cpu_op, its cudaLaunchKernel, the GPU event and the ac2g flow between them."""
        c = self.correlation
        self.correlation += 1
        self.event(f'{{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": {pid}, "tid": {tid}, '
                   f'"ts": {us(cpu_ts)}, "dur": {dur(CPU_LAUNCH_NS - 500)}, "args": {{"External id": {c}, '
                   f'"Record function id": 0, "Ev Idx": {self.count}, "Sequence number": {c % 977}, "Fwd thread id": 0}}}}')
        self.event(f'{{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": {pid}, "tid": {tid}, '
                   f'"ts": {us(cpu_ts + 1_000)}, "dur": {dur(4_250)}, "args": {{"External id": {c}, "cbid": 211, '
                   f'"correlation": {c}}}}}')
        self.event(f'{{"ph": "s", "id": {c}, "pid": {pid}, "tid": {tid}, "ts": {us(cpu_ts + 1_000)}, '
                   f'"cat": "ac2g", "name": "ac2g"}}')
        corr = f', "correlation": {c}' if self.with_correlation else ''
        if cat == 'kernel':
            args = (f'"External id": {c}, "queued": 0, "device": {device}, "context": 1, "stream": {stream}{corr}, '
                    f'"registers per thread": 128, "shared memory": 49152, "blocks per SM": 1.030303, '
                    f'"warps per SM": 8.242424, "grid": [132, 1, 1], "block": [256, 1, 1], '
                    f'"est. achieved occupancy %": 12')
        else:
            args = (f'"External id": {c}, "device": {device}, "context": 1, "stream": {stream}{corr}, '
                    f'"bytes": 131072, "memory bandwidth (GB/s)": 130.688')
        self.event(f'{{"ph": "X", "cat": "{cat}", "name": {json.dumps(name)}, "pid": {device}, "tid": {stream}, '
                   f'"ts": {us(start)}, "dur": {dur(ns)}, "args": {{{args}}}}}')
        self.event(f'{{"ph": "f", "id": {c}, "pid": {device}, "tid": {stream}, "ts": {us(start)}, '
                   f'"cat": "ac2g", "name": "ac2g", "bp": "e"}}')
        self.gpu.append({'device': device, 'stream': stream, 'start': start, 'end': start + ns,
                         'kind': kind_of(name, cat), 'holders': holders, 'leaf': leaf, 'correlation': c})

    def step(self, device, step, layers, gpu_start, cpu_start):
        """One profiler step on one device: an overlapped chunk pair of `layers` layers."""
        pid, main, autograd = 1000 + device, 1000 + device, 5000 + device
        free, done, placed = {COMPUTE: gpu_start, COMM: gpu_start}, {}, []
        for layer in range(layers):
            for name, stream, deps in ISSUE:
                start = max([free[stream]] + [done[(d, layer + o)] for d, o in deps if (d, layer + o) in done])
                end = start + sum(ns + device + GAP_NS for s, _, ns in KERNELS[name] if s == stream) - GAP_NS
                done[(name, layer)] = free[stream] = end
                placed.append((layer, name, start))
        cpu, windows = cpu_start, []
        for _ in placed:  # each part's annotation: long enough for its launches
            windows.append(cpu)
            cpu += CPU_LAUNCH_NS * 4 + 5_000
        step_name = f'ProfilerStep#{step + 1}'
        self.annotate(step_name, pid, main, cpu_start - 20_000, cpu + 20_000)
        self.annotate('1F1B', pid, main, cpu_start - 10_000, cpu + 10_000)
        for (layer, name, start), c0 in zip(placed, windows):
            event = self.annotate(name, pid, main, c0, c0 + CPU_LAUNCH_NS * 4 + 2_000)
            self.leaves.append({'name': name, 'cpu': c0, 'event': event, 'pair': self.pairs})
            leaf = len(self.leaves) - 1
            thread = autograd if name in BACKWARD else main
            holders = [step_name, '1F1B', name]
            t, cpu_ts = start, c0 + 1_000
            for i, (stream, kname, ns) in enumerate(KERNELS[name]):
                ns += device
                k0 = start if stream == SIDE else t
                if stream != SIDE:
                    t += ns + GAP_NS
                self.launch(device, pid, thread, cpu_ts, stream, kname, k0, ns, holders, leaf)
                cpu_ts += CPU_LAUNCH_NS
                if name == 'attn(F)' and layer == 0 and i == 0:  # a copy in the gap after attn(F)'s first kernel
                    self.launch(device, pid, thread, cpu_ts, COMPUTE, 'Memcpy DtoD (Device -> Device)', t - GAP_NS + 100,
                                MEMCPY_NS, holders, leaf, cat='gpu_memcpy')
                    cpu_ts += CPU_LAUNCH_NS
        self.pair_keys.append((device, step, step_name))
        self.pairs += 1
        for layer, name, start in placed:  # Kineto's GPU-side copies of the annotations: not kernels
            self.event(f'{{"ph": "X", "cat": "gpu_user_annotation", "name": {json.dumps(name)}, "pid": {device}, '
                       f'"tid": {COMPUTE}, "ts": {us(start)}, "dur": {dur(2_003)}, "args": {{"External id": 1}}}}')
        return max(done.values()), cpu + 40_000

    def expectations(self, layers):
        gpu = self.gpu
        span = lambda es: [(g['start'], g['end']) for g in es]
        by_stream = {}
        for g in gpu:
            by_stream.setdefault((g['device'], g['stream']), []).append(g)
        streams = []
        for key, es in sorted(by_stream.items()):
            kernel_ns = sum(g['end'] - g['start'] for g in es if g['kind'] != 'memory')
            comm_ns = sum(g['end'] - g['start'] for g in es if g['kind'] == 'comm')
            streams.append({'device': key[0], 'stream': key[1], 'kind': 'comm' if 2 * comm_ns > kernel_ns else 'compute',
                            'kernels': sum(g['kind'] != 'memory' for g in es),
                            'commKernels': sum(g['kind'] == 'comm' for g in es),
                            'memoryEvents': sum(g['kind'] == 'memory' for g in es), 'busyMs': length(span(es)) / 1e6})
        devices, overlap_ns, comm_total = [], 0, 0
        for device in sorted({g['device'] for g in gpu}):
            comp = span(g for g in gpu if g['device'] == device and g['kind'] == 'compute')
            comm = span(g for g in gpu if g['device'] == device and g['kind'] == 'comm')
            o, c = both(comp, comm), length(comm)
            overlap_ns, comm_total = overlap_ns + o, comm_total + c
            devices.append({'device': device, 'computeMs': length(comp) / 1e6, 'commMs': c / 1e6, 'overlapMs': o / 1e6,
                            'overlap': o / c if c else None})
        first_seen, count = {}, {}
        for name, start, index in self.annotations:
            first_seen[name] = min(first_seen.get(name, (start, index)), (start, index))
            count[name] = count.get(name, 0) + 1
        held = {}  # name -> (device, stream) -> [kernels, ns]
        for g in gpu:
            for name in g['holders']:
                entry = held.setdefault(name, {}).setdefault((g['device'], g['stream']), [0, 0])
                entry[0] += 1
                entry[1] += g['end'] - g['start']
        annotations = []
        for name in sorted(first_seen, key=lambda n: first_seen[n]):
            per = held.get(name, {})
            annotations.append({'name': name, 'count': count[name], 'kernels': sum(v[0] for v in per.values()),
                                'gpuMs': sum(v[1] for v in per.values()) / 1e6,
                                'streams': [{'device': k[0], 'stream': k[1], 'kernels': v[0], 'gpuMs': v[1] / 1e6}
                                            for k, v in sorted(per.items())]})
        unattributed = [g for g in gpu if not g['holders']]
        origin = min(g['start'] for g in gpu)
        # the part annotations, by their first GPU event (then CPU start): those that launched any
        owned = {}
        for g in gpu:
            if g['holders'] and g['leaf'] is not None:
                owned.setdefault(g['leaf'], []).append(g)
        leaves = sorted(owned, key=lambda i: (min(g['start'] for g in owned[i]), self.leaves[i]['cpu'],
                                              self.leaves[i]['event']))
        spans = []
        for i in leaves:
            for key in sorted({(g['device'], g['stream']) for g in owned[i]}):
                ks = span(g for g in owned[i] if (g['device'], g['stream']) == key)
                spans.append({'name': self.leaves[i]['name'], 'device': key[0], 'stream': key[1],
                              'startMs': (min(a for a, _ in ks) - origin) / 1e6,
                              'endMs': (max(b for _, b in ks) - origin) / 1e6, 'busyMs': length(ks) / 1e6})
        return {'streams': streams, 'devices': devices, 'overlap': overlap_ns / comm_total if comm_total else None,
                'annotations': annotations,
                'unattributed': {'events': len(unattributed),
                                 'gpuMs': sum(g['end'] - g['start'] for g in unattributed) / 1e6},
                'order': [self.leaves[i]['name'] for i in leaves], 'spans': spans,
                'derived': self.derived(owned, layers, origin)}

    def derived(self, owned, layers, origin):
        """The costs of one chunk pair: each part's busy time (the union of its kernels), summed
        over its layers, averaged over the pairs and rounded half away to the nanosecond."""
        busy = {p: 0 for p in PARTS}
        first, last = {}, {}
        for i, es in owned.items():
            leaf = self.leaves[i]
            busy[leaf['name']] += length([(g['start'], g['end']) for g in es])
            first[leaf['pair']] = min([first.get(leaf['pair'], es[0]['start'])] + [g['start'] for g in es])
            last[leaf['pair']] = max([last.get(leaf['pair'], es[0]['end'])] + [g['end'] for g in es])
        n = self.pairs
        ns = {p: round_half_away(busy[p], n) for p in PARTS}
        f, w = ns['attn(F)'] + ns['mlp(F)'], ns['attn(W)'] + ns['mlp(W)']
        b = ns['attn(B)'] + ns['mlp(B)'] + w
        fwd_comm, bwd_comm = ns['dispatch(F)'] + ns['combine(F)'], ns['dispatch(B)'] + ns['combine(B)']
        pair_ns = round_half_away(sum(last[p] - first[p] for p in first), n)
        ms = {p: v / 1e6 for p, v in ns.items()}
        # the first pair: the lowest device's first step
        p0 = min(first, key=lambda p: self.pair_keys[p][:2])
        first_pair = {'device': self.pair_keys[p0][0], 'step': self.pair_keys[p0][2],
                      'startMs': (first[p0] - origin) / 1e6, 'endMs': (last[p0] - origin) / 1e6}
        return {'pairs': n, 'layers': layers, 'forward': f / 1e6, 'backward': b / 1e6, 'weight': w / 1e6,
                'overlapped': (f + b) / 1e6, 'commRatio': fwd_comm / f, 'attnShare': ns['attn(F)'] / f,
                'forwardAlone': (f + fwd_comm) / 1e6, 'backwardAlone': (b + bwd_comm) / 1e6, 'pairMs': pair_ns / 1e6,
                'firstPair': first_pair,
                'components': {'forward': {'attn': ms['attn(F)'], 'dispatch': ms['dispatch(F)'], 'mlp': ms['mlp(F)'],
                                           'combine': ms['combine(F)']},
                               'backward': {'attn': ms['attn(B)'], 'attnWeight': ms['attn(W)'],
                                            'dispatch': ms['dispatch(B)'], 'mlp': ms['mlp(B)'],
                                            'mlpWeight': ms['mlp(W)'], 'combine': ms['combine(B)']}}}


def header(devices):
    props = ',\n'.join(f'    {{"id": {d}, "name": "NVIDIA H800", "totalGlobalMem": 84943110144, "computeMajor": 9, '
                       f'"computeMinor": 0, "numSms": 132}}' for d in range(devices))
    return ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n' + props + '\n  ],\n'
            '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 64},\n  "traceEvents": [\n  ')


FOOTER = '\n  ],\n  "traceName": "generated by scripts/kineto-trace.py",\n  "displayTimeUnit": "ms"\n}\n'


def write_trace(trace, devices, layers, steps, target_bytes=0):
    """Every device's steps; with target_bytes, more steps until the trace is at least that long."""
    for d in range(devices):
        trace.event(f'{{"name": "process_name", "ph": "M", "ts": {us(0)}, "pid": {d}, "tid": 0, '
                    f'"args": {{"name": "python3"}}}}')
        trace.event(f'{{"name": "thread_name", "ph": "M", "ts": {us(0)}, "pid": {d}, "tid": {COMM}, '
                    f'"args": {{"name": "stream {COMM} "}}}}')
        trace.event(f'{{"name": "thread_name", "ph": "M", "ts": {us(0)}, "pid": {1000 + d}, "tid": {5000 + d}, '
                    f'"args": {{"name": "thread {5000 + d} (pt_autograd_0) \\u00b5\\n"}}}}')
        # a kernel launched before the first step, outside every annotation
        trace.launch(d, 1000 + d, 1000 + d, 0, STRAY[0], STRAY[1], 10_000, STRAY[2] + d, [])
    trace.event('{"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", '
                '"tid": "Trace PyTorch Profiler", "ts": ' + us(0) + '}')
    gpu, cpu, step = 100_000, 200_000, 0
    while step < steps or (target_bytes and trace.bytes < target_bytes):
        ends = [trace.step(d, step, layers, gpu, cpu + 1_000 * d) for d in range(devices)]
        gpu = max(e[0] for e in ends) + STEP_GAP_NS
        cpu = max(e[1] for e in ends)
        step += 1
    trace.event('{"ph": "X", "cat": "Trace", "ts": ' + us(0) + ', "dur": ' + dur(gpu) +
                ', "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}}')
    return step


# Small hostile traces: (what to do to the one-device, one-layer trace, what trace-import reports).
VARIANTS = ['truncated', 'wrong-type', 'huge-number', 'missing-field', 'unknown-phase', 'duplicate-correlation',
            'duplicate-key', 'foreign', 'not-json', 'too-deep', 'bad-utf8', 'events-not-array', 'flows-only']


def variant(name, out):
    """Writes variant `name`; returns its expectation: {"error": {...}} or {"report": {...}}."""
    first_kernel = lambda t: next(i for i, e in enumerate(t.events) if '"cat": "kernel"' in e)
    if name == 'foreign':
        out.write('{"schedule": "dualpipe", "ranks": 8, "microbatches": 20}\n')
        return {'error': {'code': 'invalid_config', 'rule': 'profile.not_trace', 'path': ''}}
    if name == 'not-json':
        out.write('PK\x03\x04 this is a zip file, not a trace')
        return {'error': {'code': 'parse_error', 'rule': 'json.invalid', 'path': '', 'message': 'at byte 0'}}
    if name == 'events-not-array':
        out.write('{"schemaVersion": 1, "traceEvents": {"ph": "X"}}')
        return {'error': {'code': 'invalid_config', 'rule': 'field.array', 'path': '/traceEvents'}}
    trace = Trace(None, with_correlation=name != 'flows-only')
    write_trace(trace, 1, 1, 1)
    if name == 'duplicate-correlation':  # the first attn(F) kernel's launch, and its flow start, twice
        kernel = next(g for g in trace.gpu if g['leaf'] is not None and trace.leaves[g['leaf']]['name'] == 'attn(F)')
        kernel['holders'] = []
        c = kernel['correlation']
        for needle in (f'"cuda_runtime", "name": "cudaLaunchKernel"', f'"ph": "s", "id": {c},'):
            i = next(i for i, e in enumerate(trace.events) if needle in e and f'{c}' in e)
            trace.events.insert(i + 1, trace.events[i])
    events = trace.events
    k = first_kernel(trace)
    expect = {'report': trace.expectations(1)}
    if name == 'truncated':
        text = header(1) + ',\n  '.join(events)
        cut = len(text) * 2 // 3
        out.write(text[:cut])
        return {'error': {'code': 'parse_error', 'rule': 'json.invalid', 'message': f'unexpected end of input at byte {cut}'}}
    if name == 'wrong-type':
        events[k] = events[k].replace('"ts": ', '"ts": "', 1).replace(', "dur"', '", "dur"', 1)
        expect = {'error': {'code': 'invalid_config', 'rule': 'field.number', 'path': f'/traceEvents/{k}/ts'}}
    elif name == 'huge-number':
        events[k] = events[k].replace('"dur": ', '"dur": 1e300, "x": ', 1)
        expect = {'error': {'code': 'invalid_config', 'rule': 'range.number', 'path': f'/traceEvents/{k}/dur'}}
    elif name == 'missing-field':
        events[k] = events[k].replace('"dur": ', '"no dur": ', 1)
        expect = {'error': {'code': 'invalid_config', 'rule': 'field.missing', 'path': f'/traceEvents/{k}/dur'}}
    elif name == 'duplicate-key':
        events[k] = events[k].replace('"ts": ', '"ts": 1, "ts": ', 1)
        expect = {'error': {'code': 'parse_error', 'rule': 'json.invalid', 'path': f'/traceEvents/{k}/ts',
                            'message': f'the key "ts" twice in one object'}}
    elif name == 'too-deep':
        events[k] = events[k].replace('"args": {', '"args": {"deep": ' + '[' * 70 + ']' * 70 + ', ', 1)
        expect = {'error': {'code': 'parse_error', 'rule': 'json.invalid', 'path': f'/traceEvents/{k}/args/deep',
                            'message': 'nested more than 64 levels deep'}}
    elif name == 'bad-utf8':
        events[k] = events[k].replace('"name": "', '"name": "\udcff', 1)
        expect = {'error': {'code': 'parse_error', 'rule': 'json.invalid', 'path': f'/traceEvents/{k}/name',
                            'message': 'invalid UTF-8'}}
    elif name == 'unknown-phase':  # phases the reader does not know are read and left alone
        events[1:1] = ['{"ph": "Z", "name": "future", "pid": 1, "tid": 1, "ts": 5, "args": {"x": [1, {"y": null}]}}',
                       '{"ph": "?", "cat": "kernel"}', '{"ph": "q"}']
    out.buffer.write((header(1) + ',\n  '.join(events) + FOOTER).encode('utf-8', 'surrogateescape'))
    return expect


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--devices', type=int, default=2)
    parser.add_argument('--layers', type=int, default=4)
    parser.add_argument('--steps', type=int, default=1)
    parser.add_argument('--target-mb', type=float, default=0, help='more steps until the trace is this large')
    parser.add_argument('--no-correlation', action='store_true', help='GPU events without args.correlation: '
                        'only the ac2g flows tie them to their launches')
    parser.add_argument('--variant', choices=VARIANTS)
    parser.add_argument('--out', help='the trace (default: standard output)')
    parser.add_argument('--expect', help='where to write what trace-import must report')
    args = parser.parse_args()
    out = open(args.out, 'w', encoding='utf-8', newline='') if args.out else sys.stdout
    if args.variant:
        expect = variant(args.variant, out)
    else:
        out.write(header(args.devices))
        trace = Trace(out, with_correlation=not args.no_correlation)
        steps = write_trace(trace, args.devices, args.layers, args.steps, int(args.target_mb * 1e6))
        out.write(FOOTER)
        expect = {'report': trace.expectations(args.layers), 'steps': steps}
    if args.out:
        out.close()
    if args.expect:
        with open(args.expect, 'w') as f:
            json.dump(expect, f, indent=1)


if __name__ == '__main__':
    main()
