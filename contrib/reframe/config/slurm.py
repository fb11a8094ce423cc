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
                    # The test cluster's: its nodes talk over the bridge's subnet only, and
                    # share the machine's 2 cores (idle ranks must yield). Between nodes over
                    # TCP, Open MPI 4.1's default one-sided component (osc/rdma) cannot create
                    # a window (imb-rma exits with MPI_ERR_WIN, 53): osc/pt2pt can. A site
                    # drops these (with UCX on InfiniBand, osc/ucx is the one to use).
                    'env_vars': [
                        ['OMPI_MCA_btl_tcp_if_include', '10.78.0.0/24'],
                        ['OMPI_MCA_oob_tcp_if_include', '10.78.0.0/24'],
                        ['OMPI_MCA_mpi_yield_when_idle', '1'],
                        ['OMPI_MCA_osc', 'pt2pt'],
                    ],
                },
            ],
        },
    ],
    'general': _local.site_configuration['general'],
    'logging': _local.site_configuration['logging'],
}
