#!/usr/bin/env python3
"""`pipesim trace-import` against traces scripts/kineto-trace.py writes (issue 28): the CLI must
report exactly the busy times, overlap, per-annotation times, order, spans and costs the script
put in (its --expect file, worked out from the kernels it placed), for several shapes of trace
and with the ac2g flows as the only link from launch to kernel; each hostile variant must end in
exit 1, nothing on stdout and one line on stderr naming the problem. Also the command's own
contract: FILE or --input, stdin, --comm-pattern, --format text.

Usage: PIPESIM=build/native/pipesim tests/core/trace_import_test.py
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get('PIPESIM') or os.path.join(ROOT, 'build/native/pipesim')
GENERATOR = os.path.join(ROOT, 'scripts/kineto-trace.py')
failures = []


def generate(work, name, *args):
    trace, expect = os.path.join(work, name + '.json'), os.path.join(work, name + '.expect.json')
    subprocess.run([sys.executable, GENERATOR, '--out', trace, '--expect', expect, *args], check=True)
    with open(expect) as f:
        return trace, json.load(f)


def run(*args, stdin=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True)


def mismatches(got, want, path=''):
    """Every place where `got` differs from `want` (only the keys `want` has are compared)."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f'{path}: {got!r} is not an object']
        return [m for k in want for m in mismatches(got.get(k), want[k], f'{path}.{k}')]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f'{path}: {len(got) if isinstance(got, list) else got!r} entries, want {len(want)}']
        return [m for i, (g, w) in enumerate(zip(got, want)) for m in mismatches(g, w, f'{path}[{i}]')]
    return [] if got == want and type(got) is type(want) or (got == want and {type(got), type(want)} <= {int, float})\
        else [f'{path}: {got!r}, want {want!r}']


def report_mismatches(got, want):
    """The report against the script's expectations; derived numbers sit in {value, derivation}."""
    want = dict(want)
    derived = want.pop('derived')
    found = mismatches(got, want)
    values = {k: v['value'] for k, v in got['derived'].items() if isinstance(v, dict) and 'value' in v}
    values['components'] = {p: {k: v['value'] for k, v in parts.items()}
                            for p, parts in got['derived']['components'].items()}
    values['firstPair'] = got['derived']['firstPair']
    return found + mismatches(values, derived, '.derived')


def check(what, problems):
    if problems:
        failures.append(what)
        print(f'FAIL: {what}:\n  ' + '\n  '.join(problems[:10]))


def check_report(what, trace, expect, *args):
    result = run('trace-import', trace, '--format', 'json', *args)
    if result.returncode != 0:
        check(what, [f'exit {result.returncode}: {result.stderr.decode()}'])
        return None
    got = json.loads(result.stdout)
    check(what, report_mismatches(got, expect['report']))
    return got


def check_error(what, result, code, message=None):
    err = result.stderr.decode('utf-8', 'replace')
    problems = []
    if result.returncode != 1:
        problems.append(f'exit {result.returncode}')
    if result.stdout:
        problems.append(f'{len(result.stdout)} bytes on stdout')
    if err.count('\n') != 1 or not err.endswith('\n') or len(err.encode()) > 300:
        problems.append(f'not one short line: {err!r}')
    if not err.startswith(f'pipesim: {code}: '):
        problems.append(f'not a {code}: {err!r}')
    if message and message not in err:
        problems.append(f'{message!r} not in {err!r}')
    check(what, problems)


def main():
    with tempfile.TemporaryDirectory() as work:
        # Two devices: pairs differ by a nanosecond per kernel, so the costs are means, rounded.
        trace, expect = generate(work, 'two-devices')
        got = check_report('2 devices x 4 layers', trace, expect)
        # Several profiler steps on one device: one pair per step.
        check_report('3 steps x 2 layers', *generate(work, 'steps', '--devices', '1', '--layers', '2', '--steps', '3'))
        # No args.correlation on GPU events: the ac2g flows alone tie kernels to launches.
        check_report('flows only', *generate(work, 'flows', '--no-correlation'))
        # The comparison can fail: the base trace's expectations against the duplicated launch,
        # whose kernel no annotation holds.
        dup, dup_expect = generate(work, 'duplicate', '--variant', 'duplicate-correlation')
        one, one_expect = generate(work, 'one', '--devices', '1', '--layers', '1')
        check('the duplicated launch changes the report', [] if report_mismatches(
            json.loads(run('trace-import', dup, '--format', 'json').stdout), one_expect['report']) else ['no mismatch'])

        if got is not None:
            # The modelled pair is what `pipesim overlap` makes of the derived costs.
            costs = os.path.join(work, 'costs.json')
            with open(costs, 'w') as f:
                json.dump(got['derived']['costs'], f)
            pair = json.loads(run('overlap', '--input', costs, '--format', 'json').stdout)
            check('modelPairMs is pipesim overlap on the costs',
                  [] if pair['duration'] == got['derived']['modelPairMs']['value'] else [f"{pair['duration']}"])
            # The same from stdin, and the text form.
            with open(trace, 'rb') as f:
                text = f.read()
            same = run('trace-import', '--input', '-', '--format', 'json', stdin=text)
            check('stdin gives the same JSON', [] if json.loads(same.stdout) == got else ['differs'])
            plain = run('trace-import', trace)
            out = plain.stdout.decode()
            check('text form', [] if plain.returncode == 0 and 'overlap: ' in out and 'attn(F) + mlp(F) = ' in out
                  else [out[:300]])
            # --comm-pattern: with only NCCL as communication, the DeepEP streams turn compute.
            nccl = json.loads(run('trace-import', trace, '--format', 'json', '--comm-pattern', 'nccl').stdout)
            check('--comm-pattern', [] if nccl['commPattern'] == 'nccl' and
                  sum(s['commKernels'] for s in nccl['streams']) < sum(s['commKernels'] for s in got['streams'])
                  else ['no change'])

        for variant in ['truncated', 'wrong-type', 'huge-number', 'missing-field', 'unknown-phase',
                        'duplicate-correlation', 'duplicate-key', 'foreign', 'not-json', 'too-deep', 'bad-utf8',
                        'events-not-array', 'flows-only']:
            trace, expect = generate(work, variant, '--variant', variant)
            if 'report' in expect:
                check_report(f'variant {variant}', trace, expect)
                continue
            e = expect['error']
            result = run('trace-import', trace)
            check_error(f'variant {variant}', result, e['code'], e.get('message'))
            path = e.get('path')
            if path:  # the JSON pointer, where the message names it (json.invalid's detail or a dotted field)
                dotted = path[1:].replace('/', '.')
                err = result.stderr.decode('utf-8', 'replace')
                check(f'variant {variant} names {path}', [] if path in err or dotted in err or path == ''
                      else [err])

        # The command's own errors, and inputs no trace should be.
        check_error('no trace', run('trace-import'), 'invalid_config',
                    'missing the trace (pipesim trace-import FILE, or --input - for stdin)')
        check_error('FILE and --input', run('trace-import', trace, '--input', trace), 'invalid_config',
                    'give the trace once, as FILE or as --input, not both')
        check_error('empty --comm-pattern alternative', run('trace-import', trace, '--comm-pattern', 'nccl|'),
                    'invalid_config', 'commPattern must be 1 to 32 non-empty kernel-name substrings')
        check_error('unreadable file', run('trace-import', os.path.join(work, 'missing.json')), 'invalid_config',
                    'cannot read input file')
        check_error('a directory', run('trace-import', work), 'invalid_config', 'cannot read input file')
        check_error('--format csv', run('trace-import', trace, '--format', 'csv'), 'invalid_config')
        big = subprocess.run(f'head -c 300000000 /dev/zero | tr "\\0" " " | "{CLI}" trace-import --input -',
                             shell=True, capture_output=True)
        check_error('300 MB of whitespace', big, 'too_large', 'input is larger than the limit of 268435456 bytes')
        check_error('100,000 nested arrays', run('trace-import', '--input', '-', stdin=b'[' * 100_000 + b']' * 100_000),
                    'parse_error', 'nested more than 64 levels deep at byte 64 (/0)')
        check_error('a 3 MB unterminated string',
                    run('trace-import', '--input', '-', stdin=b'{"traceEvents":[{"name":"' + b'x' * 3_000_000),
                    'parse_error', 'unexpected end of input at byte 3000025 (/traceEvents/0/name)')
        check_error('a million empty events', run('trace-import', '--input', '-', stdin=b'[' + b'{},' * 999_999 + b'{}]'),
                    'invalid_config', 'missing field 0.ph')
        many = run('trace-import', '--input', '-', '--format', 'json', stdin=b'[' + b'{"ph":"?"},' * 999_999 + b'{"ph":"?"}]')
        check('a million events of an unknown phase', [] if many.returncode == 0 and
              json.loads(many.stdout)['events'] == 1_000_000 else [many.stderr.decode()])

    print(f'trace-import: {len(failures)} failure(s)')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
