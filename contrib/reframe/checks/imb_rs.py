# ReFrame checks for imb-rs (contrib/reframe/README.md says how a site uses them).
#
#   reframe -C contrib/reframe/config/local.py -c contrib/reframe/checks/imb_rs.py -r
#
# ImbMpi1Check, ImbNbcCheck, ImbRmaCheck: one test per benchmark (the `benchmark` parameter).
#   Each runs its program `launches` times, one launch after the other, every launch writing
#   its text table to N.txt and its -json file to N.json in a directory named
#   <program>-<benchmark> (the layout imb-compare reads as one run of N launches, kept in the
#   output directory). Sanity: every launch's table parsed, its JSON complete and holding the
#   same rows. Performance variables: figures of the tables (the median over the launches),
#   with unbounded references unless the `contract` variable gives a site's figures.
# ImbCompareCheck: one test per benchmark too, after the run it depends on: imb-compare
#   --references on that run's launches, against a baseline run when `baseline_dir` has one.
#   It passes when every criterion passed (imb-compare's exit 0) and reports the verdict
#   counts as performance variables; a FAIL (exit 1) or an INCONCLUSIVE (exit 4) fails it
#   unless `require` says otherwise ('no-fail': INCONCLUSIVE passes; 'verdict': any verdict).
# ImbRsBinaries: a fixture that finds the executables and, when they are missing (or always,
#   with build=always), builds them with `cargo build --release` in the repository.

import json
import os
import shlex
import statistics

try:
    import tomllib
except ModuleNotFoundError:  # Python before 3.11: the same reader from PyPI (pip install tomli)
    import tomli as tomllib

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
import reframe.utility.udeps as udeps
from reframe.core.backends import getlauncher
from reframe.core.builtins import (fixture, parameter, performance_function,
                                   run_after, run_before, sanity_function,
                                   variable)
from reframe.core.exceptions import SanityError

# contrib/reframe/checks/imb_rs.py -> the repository root
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_bin_dir():
    '''$IMB_RS_BIN, else $CARGO_TARGET_DIR/release, else the repository's target/release.'''
    if os.environ.get('IMB_RS_BIN'):
        return os.environ['IMB_RS_BIN']
    target = os.environ.get('CARGO_TARGET_DIR') or os.path.join(REPO, 'target')
    return os.path.join(target, 'release')


# Which figures each benchmark reports: (performance variable, JSON row key, which row, unit,
# table mode or None). Which row: 'smallest' and 'largest' message size, 'smallest>0' the
# smallest size above 0 bytes, 'row' the only row of a sizeless table (Barrier). A benchmark
# not listed here gets figures by its table's columns (see `figures_for`).
FIGURES = {
    'PingPong': [('latency', 't_us', 'smallest', 'us', None),
                 ('bandwidth', 'mbytes_per_s', 'largest', 'MB/s', None)],
    'Allreduce': [('t_avg_smallest', 't_avg_us', 'smallest', 'us', None),
                  ('t_avg_largest', 't_avg_us', 'largest', 'us', None)],
    'Barrier': [('t_avg', 't_avg_us', 'row', 'us', None)],
    # A put of 0 bytes transfers nothing: latency at the smallest size above 0, with a flush
    # after every put (NON-AGGREGATE); bandwidth with one flush after many (AGGREGATE).
    'Unidir_put': [('latency', 't_us', 'smallest>0', 'us', 'NON-AGGREGATE'),
                   ('bandwidth', 'mbytes_per_s', 'largest', 'MB/s', 'AGGREGATE')],
    'One_put_all': [('t_smallest', 't_us', 'smallest>0', 'us', None),
                    ('bandwidth', 'mbytes_per_s', 'largest', 'MB/s', None)],
}


def figures_for(benchmark):
    '''The figures of a benchmark: FIGURES's entry, else by the kind of table its name says.'''
    if benchmark in FIGURES:
        return FIGURES[benchmark]
    if benchmark.startswith('I') and not benchmark.endswith('_pure'):
        # imb-nbc's overlap tables (Ibcast, Iallreduce, ...); Ibarrier has one row
        which = 'row' if benchmark == 'Ibarrier' else 'largest'
        return [('t_ovrl', 't_ovrl_us', which, 'us', None),
                ('t_pure', 't_pure_us', which, 'us', None),
                ('overlap', 'overlap_pct', which, '%', None)]
    if benchmark in ('PingPing', 'Sendrecv', 'Exchange', 'Unidir_get', 'Bidir_put',
                     'Bidir_get', 'Put_local', 'Get_local'):
        return FIGURES['PingPong']
    return [('t_avg_smallest', 't_avg_us', 'smallest', 'us', None),
            ('t_avg_largest', 't_avg_us', 'largest', 'us', None)]


class ImbRsBinaries(rfm.RunOnlyRegressionTest):
    '''Finds imb-rs's executables in `bin_dir`, building them first if need be.'''

    descr = 'imb-rs executables (found, or built with cargo build --release)'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    sourcesdir = None

    #: Where the executables are.
    bin_dir = variable(str, value=default_bin_dir())
    #: The imb-rs source tree `cargo build` runs in.
    repo = variable(str, value=REPO)
    #: 'auto': build when one of `programs` is missing; 'always': run `cargo build --release`
    #: every time (quick when nothing changed); 'never'.
    build = variable(str, value='auto')
    programs = variable(typ.List[str],
                        value=['imb-mpi1', 'imb-nbc', 'imb-rma', 'imb-compare'])
    executable = 'ls'
    time_limit = '30m'

    @run_before('run')
    def set_commands(self):
        if self.build not in ('auto', 'always', 'never'):
            raise ValueError(f'build={self.build!r}: use auto, always or never')
        missing = [p for p in self.programs
                   if not os.access(os.path.join(self.bin_dir, p), os.X_OK)]
        if self.build == 'always' or (self.build == 'auto' and missing):
            if os.path.basename(os.path.normpath(self.bin_dir)) != 'release':
                raise ValueError(f'bin_dir={self.bin_dir}: cargo builds into '
                                 f'<target>/release, so building needs such a bin_dir')
            target = os.path.dirname(os.path.normpath(self.bin_dir))
            packages = ' '.join(f'-p {shlex.quote(p)}' for p in self.programs)
            self.prerun_cmds = [
                f'(cd {shlex.quote(self.repo)} && CARGO_TARGET_DIR={shlex.quote(target)} '
                f'cargo build --release {packages})'
            ]
        self.executable_opts = ['-l'] + [shlex.quote(os.path.join(self.bin_dir, p))
                                         for p in self.programs]

    @sanity_function
    def all_found(self):
        return sn.all([sn.assert_true(os.access(os.path.join(self.bin_dir, p), os.X_OK),
                                      msg=f'{p} not found in {self.bin_dir}')
                       for p in self.programs])

    def path(self, program):
        return os.path.join(self.bin_dir, program)


class ImbRsRun(rfm.RunOnlyRegressionTest):
    '''Runs one benchmark of one imb-rs program `launches` times (abstract: see below).'''

    valid_systems = ['*']
    valid_prog_environs = ['*']
    sourcesdir = None
    num_tasks = 2
    time_limit = '20m'
    binaries = fixture(ImbRsBinaries, scope='session')

    #: The executable (set by each check).
    program = variable(str)
    #: Launches a run: each is one sample of the machine's state, and imb-compare needs 4 or 5
    #: a side to give a change an interval (doc/ACCEPTANCE.md).
    launches = variable(int, value=5)
    #: -msglog [min:]max: the ladder of message sizes, 2^min to 2^max bytes.
    msglog = variable(str, value='0:4')
    #: -iter: repetitions per size ('' for the program's standard ones).
    iterations = variable(str, value='20')
    #: More options for the program, e.g. ['-map', '2x2'] or ['-time', '1'].
    options = variable(typ.List[str], value=[])
    #: A site's contract figures, as ReFrame references:
    #: {'system:partition': {'PingPong': {'latency': (1.8, None, 0.1)}}} ('*' for any system).
    #: Figures not named here get unbounded references: logged, never judged.
    contract = variable(dict, value={})
    #: The same in a JSON file (null for no bound), merged over `contract`:
    #: {"cluster:compute": {"PingPong": {"latency": [1.8, null, 0.1]}}}
    contract_file = variable(str, value='')

    @property
    def run_dir(self):
        '''The launches' directory, <program>-<benchmark>, relative to the stage directory.'''
        return f'{self.program}-{self.benchmark}'

    @run_after('init')
    def set_descr_and_figures(self):
        self.descr = (f'{self.program} {self.benchmark}: {self.launches} launch(es), '
                      f'-msglog {self.msglog}')
        self.keep_files = [self.run_dir]
        perf = {}
        reference = {'*': {}}
        for name, key, which, unit, mode in figures_for(self.benchmark):
            fn = {'us': self.time_us, 'MB/s': self.mbytes_per_s, '%': self.percent}[unit]
            perf[name] = fn(key, which, mode)
            reference['*'][name] = (0, None, None, unit)
        contract = {k: {b: dict(f) for b, f in v.items()} for k, v in self.contract.items()}
        if self.contract_file:
            with open(self.contract_file, encoding='utf-8') as f:
                for system, benchmarks in json.load(f).items():
                    for benchmark, figures in benchmarks.items():
                        contract.setdefault(system, {}).setdefault(benchmark, {}).update(figures)
        for system, benchmarks in contract.items():
            for name, ref in benchmarks.get(self.benchmark, {}).items():
                unit = dict((f[0], f[3]) for f in figures_for(self.benchmark)).get(name)
                if unit is None:
                    raise ValueError(f'contract: {self.benchmark} has no figure {name!r}')
                reference.setdefault(system, {})[name] = (*ref[:3], unit)
        self.perf_variables = perf
        self.reference = reference

    @run_before('run')
    def launch_loop(self):
        # The partition's launcher (mpirun, srun, ...) with the options its configuration
        # names (extras: launcher_options), wrapped in a loop of `launches` launches; the
        # job's own launcher becomes the local one so that the loop is not launched N times.
        # (ReFrame copies the task counts into the job only after this hook: do it first.)
        self.job.num_tasks = self.num_tasks
        self.job.num_tasks_per_node = self.num_tasks_per_node
        self.job.num_cpus_per_task = self.num_cpus_per_task
        opts = self.current_partition.extras.get('launcher_options', [])
        self.job.launcher.options += list(opts)
        launch = self.job.launcher.run_command(self.job)
        self.job.launcher = getlauncher('local')()
        exe = shlex.quote(self.binaries.path(self.program))
        args = [self.benchmark, '-msglog', self.msglog]
        if self.iterations:
            args += ['-iter', self.iterations]
        args += self.options
        args = ' '.join(shlex.quote(a) for a in args)
        d = shlex.quote(self.run_dir)
        self.prerun_cmds = [f'mkdir -p {d}', f'echo "launch: {launch} {exe} {args}"']
        self.executable = (
            f'for i in $(seq 1 {int(self.launches)}); do '
            f'{launch} {exe} {args} -json {d}/$i.json > {d}/$i.txt; rc=$?; '
            f'if [ $rc -ne 0 ]; then echo "launch $i: exit status $rc"; exit $rc; fi; '
            f'echo "launch $i of {int(self.launches)} done"; done'
        )

    # Reading the launches

    def launch_files(self, ext):
        return [os.path.join(self.stagedir, self.run_dir, f'{i}.{ext}')
                for i in range(1, self.launches + 1)]

    def tables(self, doc, mode=None):
        return [t for t in doc['tables'] if t['benchmark'] == self.benchmark
                and (mode is None or t.get('mode') == mode)]

    @sanity_function
    def launches_parsed(self):
        '''Every launch: the text table parsed, the JSON complete with the same rows.'''
        for txt, js in zip(self.launch_files('txt'), self.launch_files('json')):
            if not os.path.isfile(txt) or not os.path.isfile(js):
                raise SanityError(f'{txt} or {js} missing: the launch did not run')
            text = open(txt, encoding='utf-8').read()
            sn.evaluate(sn.assert_found(rf'^# Benchmarking {self.benchmark}\s*$', txt,
                                        msg=f'{txt}: no {self.benchmark} table'))
            sn.evaluate(sn.assert_found(r'^# All processes entering MPI_Finalize', txt,
                                        msg=f'{txt}: the run did not finish'))
            text_rows = sum(1 for line in text.splitlines() if is_row(line))
            try:
                with open(js, encoding='utf-8') as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                raise SanityError(f'{js}: not JSON: {e}') from None
            if doc.get('complete') is not True:
                raise SanityError(f'{js}: "complete" is not true: the run did not finish')
            json_rows = sum(len(t['rows']) for t in doc['tables'])
            if not self.tables(doc) or json_rows == 0:
                raise SanityError(f'{js}: no {self.benchmark} rows')
            if json_rows != text_rows:
                raise SanityError(f'{txt} has {text_rows} table rows, {js} {json_rows}')
        return True

    def figure(self, key, which, mode):
        '''The median over the launches of one figure of the benchmark's table.'''
        values = []
        for js in self.launch_files('json'):
            with open(js, encoding='utf-8') as f:
                doc = json.load(f)
            tables = self.tables(doc, mode)
            if not tables:
                raise SanityError(f'{js}: no {self.benchmark} table'
                                  f'{" in mode " + mode if mode else ""}')
            rows = tables[0]['rows']
            if which == 'row':
                row = rows[0]
            else:
                sized = [r for r in rows if 'bytes' in r
                         and (which != 'smallest>0' or r['bytes'] > 0)]
                if not sized:
                    raise SanityError(f'{js}: {self.benchmark}: no row for {which}')
                pick = max if which == 'largest' else min
                row = pick(sized, key=lambda r: r['bytes'])
            values.append(float(row[key]))
        return statistics.median(values)

    @performance_function('us')
    def time_us(self, key='t_us', which='smallest', mode=None):
        return self.figure(key, which, mode)

    @performance_function('MB/s')
    def mbytes_per_s(self, key='mbytes_per_s', which='largest', mode=None):
        return self.figure(key, which, mode)

    @performance_function('%')
    def percent(self, key='overlap_pct', which='largest', mode=None):
        return self.figure(key, which, mode)


#: The benchmarks each check runs (a parameter: one test each). Add names to run more.
MPI1_BENCHMARKS = ['PingPong', 'Allreduce', 'Barrier']
NBC_BENCHMARKS = ['Ibcast', 'Iallreduce']
RMA_BENCHMARKS = ['Unidir_put', 'One_put_all']


@rfm.simple_test
class ImbMpi1Check(ImbRsRun):
    '''imb-mpi1 (IMB 3.0's MPI-1 benchmarks).'''
    program = 'imb-mpi1'
    benchmark = parameter(MPI1_BENCHMARKS)
    tags = {'imb-rs', 'mpi1'}


@rfm.simple_test
class ImbNbcCheck(ImbRsRun):
    '''imb-nbc (non-blocking collectives overlapped with CPU work, IMB-NBC).'''
    program = 'imb-nbc'
    benchmark = parameter(NBC_BENCHMARKS)
    tags = {'imb-rs', 'nbc'}


@rfm.simple_test
class ImbRmaCheck(ImbRsRun):
    '''imb-rma (MPI-3 one-sided, passive target, IMB-RMA).'''
    program = 'imb-rma'
    benchmark = parameter(RMA_BENCHMARKS)
    tags = {'imb-rs', 'rma'}


#: (run check's class name, program, benchmark) of every run check, for ImbCompareCheck.
RUN_CHECKS = [(cls.__name__, cls.program, b)
              for cls, names in ((ImbMpi1Check, MPI1_BENCHMARKS), (ImbNbcCheck, NBC_BENCHMARKS),
                                 (ImbRmaCheck, RMA_BENCHMARKS)) for b in names]


def run_check_class(name):
    '''The run check class of that name: ours, or a site's subclass of one of them.'''
    todo = [ImbRsRun]
    while todo:
        cls = todo.pop()
        if cls.__name__ == name:
            return cls
        todo += cls.__subclasses__()
    raise ValueError(f'run_check: no check class {name!r} (a subclass of ImbRsRun)')


def is_row(line):
    '''A table row of the text output: indented, every field a number.'''
    fields = line.split()
    if not fields or not line[0].isspace():
        return False
    try:
        [float(f) for f in fields]
    except ValueError:
        return False
    return True


def toml_value(v):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return '[' + ', '.join(toml_value(x) for x in v) + ']'
    raise ValueError(f'{v!r}: not a criterion value')


@rfm.simple_test
class ImbCompareCheck(rfm.RunOnlyRegressionTest):
    '''imb-compare --references on one run check's launches, against a baseline if given.'''

    valid_systems = ['*']
    valid_prog_environs = ['*']
    local = True
    sourcesdir = None
    time_limit = '10m'
    binaries = fixture(ImbRsBinaries, scope='session')
    run_check = parameter(RUN_CHECKS, fmt=lambda c: f'{c[1]}-{c[2]}')
    tags = {'imb-rs', 'compare'}

    #: A directory of accepted runs, one subdirectory per run check, named as the run
    #: check's launches directory (imb-mpi1-PingPong, ...): empty for no baseline.
    baseline_dir = variable(str, value='')
    #: The criteria file (imb-compare's --references). The check keeps the criteria whose
    #: benchmark is its run's (or "*"), and without a baseline those with a number as
    #: reference only.
    criteria = variable(str, value=os.path.join(HERE, 'criteria.toml'))
    #: Condition differences accepted on purpose (--accept-difference), e.g. ['placement'].
    accept_difference = variable(typ.List[str], value=[])
    #: Further options, e.g. ['--accept-oversubscribed'] for a laptop's smoke test.
    compare_options = variable(typ.List[str], value=[])
    #: What passes: 'pass' (exit 0 only: a FAIL or an INCONCLUSIVE fails the check),
    #: 'no-fail' (0 or 4: only a FAIL fails it), 'verdict' (0, 1 or 4: a verdict was
    #: reached, whatever it is). 'pass' by default: a check that passes on a failed
    #: criterion would tell a site its acceptance held when it did not.
    require = variable(str, value='pass')

    @property
    def case(self):
        _, program, benchmark = self.run_check
        return f'{program}-{benchmark}'

    @run_after('init')
    def depend_on_run(self):
        name, _, benchmark = self.run_check
        cls = run_check_class(name)
        self.run_name = cls.variant_name(cls.get_variant_nums(benchmark=benchmark)[0])
        self.depends_on(self.run_name, udeps.by_case)
        self.descr = f'imb-compare on {self.case}'
        self.keep_files = ['criteria.toml', 'verdicts.json', 'junit.xml']
        if self.require not in ('verdict', 'no-fail', 'pass'):
            raise ValueError(f'require={self.require!r}: use verdict, no-fail or pass')

    @run_after('setup')
    def set_command(self):
        run = self.getdep(self.run_name)
        new = os.path.join(run.stagedir, run.run_dir)
        base = None
        if self.baseline_dir:
            base = os.path.join(self.baseline_dir, self.case)
            self.skip_if(not os.path.isdir(base), f'no baseline {base}')
        benchmark = self.run_check[2]
        with open(self.criteria, 'rb') as f:
            criteria = tomllib.load(f).get('criterion', [])
        kept = [c for c in criteria if c.get('benchmark') in (benchmark, '*')
                and (base or c.get('reference') != 'baseline')]
        self.skip_if(not kept, f'{self.criteria}: no criterion for {benchmark}'
                     f'{"" if base else " with a number as reference (no baseline_dir)"}')
        # Written into the stage directory when the job script is (see write_criteria).
        self.kept_criteria = kept
        self.executable = shlex.quote(self.binaries.path('imb-compare'))
        opts = ['--references', 'criteria.toml', '--json', 'verdicts.json',
                '--junit', 'junit.xml']
        for kind in self.accept_difference:
            opts += ['--accept-difference', kind]
        opts += self.compare_options
        opts += ([base] if base else []) + [new]
        self.executable_opts = [shlex.quote(o) for o in opts]
        self.postrun_cmds = ['echo "imb-compare exit status: $?"']

    @run_before('run')
    def write_criteria(self):
        lines = [f'# the criteria of {self.criteria} for {self.case}']
        for c in self.kept_criteria:
            lines += ['', '[[criterion]]'] + [f'{k} = {toml_value(v)}' for k, v in c.items()]
        with open(os.path.join(self.stagedir, 'criteria.toml'), 'w') as f:
            f.write('\n'.join(lines) + '\n')

    @sanity_function
    def verdict_reached(self):
        status = sn.extractsingle(r'^imb-compare exit status: (\d+)', self.stdout, 1, int)
        allowed = {'verdict': (0, 1, 4), 'no-fail': (0, 4), 'pass': (0,)}[self.require]
        return sn.all([
            sn.assert_in(status, allowed,
                         msg=f'imb-compare exit status {{0}} (require={self.require} passes '
                             f'{allowed}; 1: a criterion failed, 4: one inconclusive, rerun '
                             f'with more launches; 2: bad input, 3: an output not written)'),
            sn.assert_found(r'^(PASS|FAIL|INCONCLUSIVE) ', self.stdout,
                            msg='imb-compare printed no verdict'),
            sn.assert_eq(self.json_status(), status,
                         msg='verdicts.json: exit_status {0}, the program exited {1}'),
        ])

    def verdicts(self):
        with open(os.path.join(self.stagedir, 'verdicts.json'), encoding='utf-8') as f:
            return json.load(f)

    @sn.deferrable
    def json_status(self):
        return self.verdicts()['exit_status']

    # verdicts.json's "criteria" counts them: {"passed": P, "failed": F, "inconclusive": I,
    # "outcomes": [one per criterion and run]}

    @performance_function('criteria')
    def passed(self):
        return self.verdicts()['criteria']['passed']

    @performance_function('criteria')
    def failed(self):
        return self.verdicts()['criteria']['failed']

    @performance_function('criteria')
    def inconclusive(self):
        return self.verdicts()['criteria']['inconclusive']
