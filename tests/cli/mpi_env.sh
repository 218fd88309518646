# Sourced by the MPI command-line tests: how they run mpirun. CI runs as root, which mpirun refuses unless told;
# shared memory only, as every rank is on this machine; more ranks than cores, and no binding of ranks to cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_hwloc_base_binding_policy=none
