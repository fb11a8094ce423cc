# ReFrame configuration: imb-rs's checks on a Slurm cluster (scripts/slurm-cluster's test
# cluster as it is; a site changes the partition's name and access, and the srun options).
#
#   reframe -C contrib/reframe/config/slurm.py -c contrib/reframe/checks/imb_rs.py -r \
#           -S num_tasks_per_node=1          # the pair on two nodes
#
# System `slurm`, partition `imb` (sbatch --partition=imb):
# - scheduler `squeue`: ReFrame's `slurm` scheduler follows its jobs with `sacct`, which needs
#   Slurm's accounting database (slurmdbd); the test cluster has none, so sacct fails. The
#   `squeue` scheduler polls squeue instead (it cannot see a job's exit code once the job has
#   left the queue; the checks judge the output files, not the exit code).
# - launcher `srun` with --mpi=pmix (extras: launcher_options, read by the imb-rs checks):
#   Debian's Open MPI is built with PMIx, and srun starts the ranks itself with Slurm's PMIx
#   plugin, so no mpirun runs inside the job (`srun --mpi=list` shows the plugins a Slurm has).
# The compare checks and the fixture that finds the executables run on this host (local).
# Paths (IMB_REFRAME_PREFIX) and logging are local.py's: this file loads it from beside
# itself. The executables and the stage directory must be on a file system the nodes share.

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    'imb_reframe_local', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'local.py'))
_local = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_local)

site_configuration = {
    'systems': [
        {
            'name': 'slurm',
            'descr': 'Slurm cluster (scripts/slurm-cluster: node1, node2, partition imb)',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'prefix': _local._prefix,
            'partitions': [
                {
                    'name': 'imb',
                    'descr': 'sbatch --partition=imb, srun --mpi=pmix',
                    'scheduler': 'squeue',
                    'launcher': 'srun',
                    'access': ['--partition=imb'],
                    'environs': ['builtin'],
                    'max_jobs': 1,
                    'extras': {'launcher_options': ['--mpi=pmix']},
                },
            ],
        },
    ],
    'general': _local.site_configuration['general'],
    'logging': _local.site_configuration['logging'],
}
