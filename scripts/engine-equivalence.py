#!/usr/bin/env python3
"""Byte-for-byte comparison of two pipesim builds over thousands of simulate configs.

Speed work on the engine (issue 26, item 7) must not change one result. This runs the same
seeded, randomly drawn requests through a reference build (main's) and a candidate build and
compares stdout, stderr and the exit code exactly: every schedule at small and large sizes, any
costs (W = 0 and W = B included), p2p latency, the communication model (ratio or explicit
components), per-stage costs, a2aOverlap and delayWgrad, chunks, runtime timing, the activation
steps, hand-written schedules (each a built-in's timeline fed back, some with two ops swapped so
that they deadlock) and invalid requests, whose error lines must match too; plus a few sweeps.

    scripts/engine-equivalence.py REFERENCE_PIPESIM CANDIDATE_PIPESIM [--configs N] [--seed S]

Exits 1 at the first difference, naming the request.
"""
import argparse
import json
import random
import subprocess
import sys

SCHEDULES = ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev', 'chimera', 'interleaved-1f1b',
             'zb-h2', 'zb-v']
COSTS = [0.1, 0.25, 0.5, 0.75, 1, 1.3, 1.5, 2, 2.4, 3, 3.7, 5]


def stages_of(schedule, ranks, chunks):
    if schedule in ('dualpipev', 'zb-v'):
        return 2 * ranks
    if schedule == 'interleaved-1f1b':
        return ranks * (chunks or 2)
    return ranks


def shape(rng, schedule):
    """Ranks and micro-batches, mostly legal for the schedule, sometimes not."""
    big = rng.random() < 0.03
    ranks = rng.choice([8, 16, 32, 64]) if big else rng.randint(1, 12)
    if schedule in ('dualpipe', 'chimera') and ranks % 2:
        ranks += 1
    if schedule in ('dualpipe', 'dualpipev'):
        mbs = 2 * ranks * rng.randint(1, 8 if big else 4) + rng.choice([0, 0, 2, 4])
    elif schedule in ('chimera', 'interleaved-1f1b'):
        mbs = ranks * rng.randint(1, 16 if big else 5)
    else:
        mbs = rng.randint(1, 256 if big else 3 * ranks + 4)
    if rng.random() < 0.04:  # break a shape rule now and then
        ranks, mbs = rng.choice([(ranks + 1, mbs), (ranks, mbs + 1), (0, mbs), (ranks, 0)])
    return ranks, mbs


def draw_costs(rng):
    f, b = rng.choice(COSTS), rng.choice(COSTS)
    w = rng.choice([0, b, rng.choice(COSTS), b / 2])
    w = min(w, b) if rng.random() < 0.97 else b + 1  # W > B is an error
    c = {'forward': f, 'backward': b, 'weight': w,
         'overlapped': rng.choice([f + b, max(f, b), rng.choice(COSTS)]),
         'p2pLatency': rng.choice([0, 0, 0, 0.1, 0.5, 1, 0.25])}
    if rng.random() < 0.25:
        if rng.random() < 0.8:
            c['comm'] = {'ratio': rng.choice([0, 0.5, 1, 2]), 'attnShare': rng.choice([0, 0.3, 0.5, 1]),
                         'layers': rng.choice([1, 2, 4])}
        else:  # explicit components; compute adds up to F, B and W
            a = 0.5
            c['comm'] = {'forward': {'attn': a * f, 'dispatch': 0.5, 'mlp': (1 - a) * f, 'combine': 0.25},
                         'backward': {'attn': a * (b - w), 'attnWeight': a * w, 'mlp': (1 - a) * (b - w),
                                      'mlpWeight': (1 - a) * w, 'dispatch': 0.5, 'combine': 1},
                         'layers': 1}
    if rng.random() < 0.02:
        c['forward'] = -1
    return c


def draw_config(rng):
    schedule = rng.choice(SCHEDULES)
    ranks, mbs = shape(rng, schedule)
    config = {'schedule': schedule, 'ranks': ranks, 'microbatches': mbs, 'costs': draw_costs(rng)}
    chunks = 0
    if schedule == 'interleaved-1f1b' and rng.random() < 0.6:
        chunks = rng.choice([1, 2, 3, 4])
        config['chunks'] = chunks
    if schedule in ('1f1b', 'interleaved-1f1b') and rng.random() < 0.3:
        config['a2aOverlap'] = True  # on more than one rank it needs chunks >= 2
        if schedule == 'interleaved-1f1b' and rng.random() < 0.9:
            config['chunks'] = chunks = rng.choice([2, 3, 4])
        elif rng.random() < 0.8:
            config['ranks'] = ranks = 1
        if rng.random() < 0.5:
            config['delayWgrad'] = True
    if schedule in ('dualpipe', 'dualpipev') and rng.random() < 0.2:
        config['timing'] = 'runtime'
    if rng.random() < 0.2 and ranks > 0:
        n = stages_of(schedule, ranks, chunks) + (1 if rng.random() < 0.05 else 0)
        stage_costs = []
        for _ in range(n):
            s = {}
            for field in ('forward', 'backward', 'weight'):
                if rng.random() < 0.5:
                    s[field] = rng.choice(COSTS)
            backward = s.get('backward', config['costs']['backward'])
            if s.get('weight', config['costs']['weight']) > backward:
                s['weight'] = backward
            if rng.random() < 0.2:  # too small a pair is an error
                s['overlapped'] = s.get('forward', config['costs']['forward']) + backward
            stage_costs.append(s)
        config['stageCosts'] = stage_costs
    return config


def run(binary, args, stdin):
    p = subprocess.run([binary, *args], input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def hand_written(rng, config, result):
    """The result's timeline as a hand-written schedule, sometimes with two ops swapped."""
    ops = [[{k: v for k, v in op.items() if k not in ('start', 'end')} for op in rank]
           for rank in result['timeline']]
    if rng.random() < 0.4:
        rank = rng.choice([r for r in ops if len(r) >= 2] or [ops[0]])
        if len(rank) >= 2:
            i, j = rng.sample(range(len(rank)), 2)
            rank[i], rank[j] = rank[j], rank[i]
    directions = 2 if config['schedule'] in ('dualpipe', 'chimera') else 1
    return {'schedule': 'custom', 'stages': result['stages'], 'directions': directions,
            'microbatches': result['microbatches'], 'rankOps': ops, 'costs': config['costs']}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('reference')
    ap.add_argument('candidate')
    ap.add_argument('--configs', type=int, default=3000)
    ap.add_argument('--seed', type=int, default=26)
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    compared = errors = 0

    def compare(args, stdin, label):
        nonlocal compared, errors
        ref = run(opts.reference, args, stdin)
        cand = run(opts.candidate, args, stdin)
        compared += 1
        errors += ref[0] != 0
        if ref != cand:
            sys.exit(f'DIFFERENT on {label}: {" ".join(args)}\n{stdin.decode()[:2000]}\n'
                     f'reference: {ref[0]} {ref[2].decode()} {ref[1][:300]!r}\n'
                     f'candidate: {cand[0]} {cand[2].decode()} {cand[1][:300]!r}')
        return ref

    for _ in range(opts.configs):
        config = draw_config(rng)
        args = ['simulate', '--input', '-', '--format', 'json']
        if rng.random() < 0.3:
            args += ['--memory', 'steps']
        stdin = json.dumps(config).encode()
        code, out, _ = compare(args, stdin, 'config')
        if code == 0 and rng.random() < 0.15 and 'stageCosts' not in config \
                and config.get('timing') != 'runtime':
            custom = hand_written(rng, config, json.loads(out))
            compare(['simulate', '--input', '-', '--format', 'json'], json.dumps(custom).encode(),
                    'hand-written')
    for costs in (['--p2p-latency', '0'], ['--p2p-latency', '0.5', '--weight', '0.5'],
                  ['--comm-ratio', '1']):
        compare(['sweep', '--schedules', 'all', '--ranks', '2:12:2', '--microbatches', '2R,4R,8R',
                 '--format', 'json', *costs], b'', 'sweep')
    print(f'{compared} requests identical ({errors} of them errors), seed {opts.seed}')


if __name__ == '__main__':
    main()
