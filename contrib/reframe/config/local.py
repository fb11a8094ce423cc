# ReFrame configuration: imb-rs's checks on this machine, under mpirun.
#
#   reframe -C contrib/reframe/config/local.py -c contrib/reframe/checks/imb_rs.py -r
#
# One system, `local`, matching any host; one partition, `mpirun`: ReFrame's local scheduler
# (the job script runs here), Open MPI's mpirun as launcher with --oversubscribe (a laptop or a
# CI box may have fewer cores than ranks), run as root allowed through Open MPI's environment
# variables. One job at a time: the benchmarks must not share the cores with each other.
#
# Everything ReFrame writes goes under IMB_REFRAME_PREFIX (stage/, output/, perflogs/,
# reports/, reframe.log), by default $CARGO_TARGET_DIR/reframe, else the repository's
# target/reframe.

import os

_repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
_prefix = os.environ.get('IMB_REFRAME_PREFIX') or os.path.join(
    os.environ.get('CARGO_TARGET_DIR') or os.path.join(_repo, 'target'), 'reframe')
os.makedirs(_prefix, exist_ok=True)

site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'this machine, mpirun',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'prefix': _prefix,
            'max_local_jobs': 1,
            'partitions': [
                {
                    'name': 'mpirun',
                    'descr': 'local scheduler, Open MPI mpirun --oversubscribe',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'max_jobs': 1,
                    'environs': ['builtin'],
                    'env_vars': [
                        ['OMPI_ALLOW_RUN_AS_ROOT', '1'],
                        ['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1'],
                    ],
                    # Read by the imb-rs checks: options added to the launcher's command.
                    'extras': {'launcher_options': ['--oversubscribe']},
                },
            ],
        },
    ],
    'general': [
        {
            'report_file': os.path.join(_prefix, 'reports', 'run-report-{sessionid}.json'),
            'topology_prefix': os.path.join(_prefix, 'topology'),
        },
    ],
    'logging': [
        {
            'level': 'debug',
            'handlers': [
                {
                    'type': 'stream',
                    'name': 'stdout',
                    'level': 'info',
                    'format': '%(message)s',
                },
                {
                    'type': 'file',
                    'name': os.path.join(_prefix, 'reframe.log'),
                    'level': 'debug',
                    'format': '[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s',
                    'append': False,
                },
            ],
            'handlers_perflog': [
                {
                    # One file per test under perflogs/<system>/<partition>/<test>/ (the
                    # test's short name: one directory per benchmark, whose figures differ),
                    # a line per run:
                    # time|system:partition|test|result|figure=value unit (reference, bounds)|…
                    'type': 'filelog',
                    'basedir': os.path.join(_prefix, 'perflogs'),
                    'prefix': '%(check_system)s/%(check_partition)s/%(check_short_name)s',
                    'level': 'info',
                    'format': ('%(check_job_completion_time)s|%(check_system)s:'
                               '%(check_partition)s|%(check_display_name)s|%(check_result)s|'
                               '%(check_perfvalues)s'),
                    'format_perfvars': ('%(check_perf_var)s=%(check_perf_value)s '
                                        '%(check_perf_unit)s (ref=%(check_perf_ref)s '
                                        'l=%(check_perf_lower_thres)s '
                                        'u=%(check_perf_upper_thres)s)|'),
                    'append': True,
                },
            ],
        },
    ],
}
