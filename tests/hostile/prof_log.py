#!/usr/bin/env python3
"""Writes a small Legion Prof log (gzip, the record layouts of Legion 25.06) for the hostile-input tests: one
node's machine, a CPU task with a wait, a meta-task with a wait, a message, a partition, a profiler task, a GPU
task, a copy, a fill, an instance and event records, all with plausible times. Any field of any record can be
set from the command line, so that a test names exactly the value it breaks:

    prof_log.py OUT [--node N] [--num-nodes N] [Record.field=VALUE ...]

VALUE is a decimal or 0x integer, negative for times. Every record type is written once, in the order below."""
import gzip
import sys

HEADER = [
    "MachineDesc {id:10, node_id:unsigned:4, num_nodes:unsigned:4, version:unsigned:4, hostname:string:-1, "
    "host_id:unsigned long long:8, process_id:unsigned:4}",
    "ZeroTime {id:60, zero_time:long long:8}",
    "ProcDesc {id:6, proc_id:ProcID:8, kind:ProcKind:4, uuid_size:uuid_size:4, cuda_device_uuid:uuid:1}",
    "MemDesc {id:7, mem_id:MemID:8, kind:MemKind:4, capacity:unsigned long long:8}",
    "TaskKind {id:11, task_id:TaskID:4, name:string:-1, overwrite:bool:1}",
    "MetaDesc {id:4, kind:unsigned:4, message:bool:1, ordered_vc:bool:1, name:string:-1}",
    "TaskWaitInfo {id:16, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, wait_start:timestamp_t:8, "
    "wait_ready:timestamp_t:8, wait_end:timestamp_t:8, wait_event:unsigned long long:8}",
    "MetaWaitInfo {id:17, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, wait_ready:timestamp_t:8, "
    "wait_end:timestamp_t:8, wait_event:unsigned long long:8}",
    "TaskInfo {id:18, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, proc_id:ProcID:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "GPUTaskInfo {id:29, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, proc_id:ProcID:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, gpu_start:timestamp_t:8, "
    "gpu_stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, fevent:unsigned long "
    "long:8}",
    "MetaInfo {id:19, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned "
    "long long:8, fevent:unsigned long long:8}",
    "MessageInfo {id:24, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, spawn:timestamp_t:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "CopyInfo {id:20, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, ready:timestamp_t:8, "
    "start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8, collective:unsigned:4}",
    "CopyInstInfo {id:47, src:MemID:8, dst:MemID:8, src_fid:unsigned:4, dst_fid:unsigned:4, src_inst:unsigned "
    "long long:8, dst_inst:unsigned long long:8, fevent:unsigned long long:8, num_hops:unsigned:4, indirect:bool:1}",
    "FillInfo {id:21, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, ready:timestamp_t:8, "
    "start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "FillInstInfo {id:48, dst:MemID:8, fid:unsigned:4, dst_inst:unsigned long long:8, fevent:unsigned long long:8}",
    "InstTimelineInfo {id:22, inst_uid:unsigned long long:8, inst_id:InstID:8, mem_id:MemID:8, size:unsigned long "
    "long:8, op_id:UniqueID:8, create:timestamp_t:8, ready:timestamp_t:8, destroy:timestamp_t:8, creator:unsigned "
    "long long:8}",
    "PartitionInfo {id:23, op_id:UniqueID:8, part_op:DepPartOpKind:4, create:timestamp_t:8, ready:timestamp_t:8, "
    "start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "EventTriggerInfo {id:52, result:unsigned long long:8, fevent:unsigned long long:8, precondition:unsigned long "
    "long:8, performed:timestamp_t:8}",
    "ProfTaskInfo {id:59, proc_id:ProcID:8, op_id:UniqueID:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, fevent:unsigned long long:8, completion:bool:1}",
]


def layouts():
    """record name -> (id, [(field, type, width)])"""
    out = {}
    for line in HEADER:
        name, body = line.split(" ", 1)
        fields = [f.strip() for f in body.strip("{}").split(",")]
        rid = int(fields[0].split(":")[1])
        parsed = []
        for f in fields[1:]:
            fname, rest = f.split(":", 1)
            ftype, width = rest.rsplit(":", 1)
            parsed.append((fname, ftype, int(width)))
        out[name] = (rid, parsed)
    return out


def records(node, num_nodes):
    proc = 0x1D00000000000000 | (node << 40)
    gpu = proc | 1
    mem = 0x1E00000000000000 | (node << 40)
    event = 0x8000000000000000 | (node << 40)
    return [
        ("MachineDesc", dict(node_id=node, num_nodes=num_nodes, version=1008, hostname="host", host_id=1,
                             process_id=100)),
        ("ZeroTime", dict(zero_time=1700000000000000000)),
        ("ProcDesc", dict(proc_id=proc, kind=2, uuid_size=0)),
        ("ProcDesc", dict(proc_id=gpu, kind=1, uuid_size=0)),
        ("MemDesc", dict(mem_id=mem, kind=2, capacity=1 << 30)),
        ("TaskKind", dict(task_id=7, name="work", overwrite=0)),
        ("MetaDesc", dict(kind=11, message=0, ordered_vc=0, name="meta")),
        ("TaskInfo", dict(op_id=1, task_id=7, variant_id=1, proc_id=proc, create=1000, ready=2000, start=3000,
                          stop=13000, creator=0, critical=0, fevent=event | 1)),
        ("TaskWaitInfo", dict(op_id=1, task_id=7, variant_id=1, wait_start=5000, wait_ready=6000, wait_end=7000,
                              wait_event=event | 0x100)),
        ("MetaInfo", dict(op_id=2, lg_id=11, proc_id=proc, create=14000, ready=14500, start=15000, stop=16000,
                          creator=0, critical=0, fevent=event | 2)),
        ("MetaWaitInfo", dict(op_id=2, lg_id=11, wait_start=15200, wait_ready=15300, wait_end=15400,
                              wait_event=event | 0x101)),
        ("MessageInfo", dict(op_id=3, lg_id=11, proc_id=proc, spawn=16100, create=16200, ready=16300, start=16400,
                             stop=16500, creator=0, critical=0, fevent=event | 3)),
        ("GPUTaskInfo", dict(op_id=4, task_id=7, variant_id=1, proc_id=gpu, create=1000, ready=2000, start=3000,
                             stop=9000, gpu_start=4000, gpu_stop=8000, creator=0, critical=0, fevent=event | 4)),
        ("CopyInfo", dict(op_id=5, size=4096, create=17000, ready=17100, start=17200, stop=18000, creator=0,
                          critical=0, fevent=event | 5, collective=0)),
        ("CopyInstInfo", dict(src=mem, dst=mem, src_fid=1, dst_fid=1, src_inst=event | 0x200, dst_inst=event | 0x201,
                              fevent=event | 5, num_hops=1, indirect=0)),
        ("FillInfo", dict(op_id=6, size=4096, create=18100, ready=18200, start=18300, stop=18400, creator=0,
                          critical=0, fevent=event | 6)),
        ("FillInstInfo", dict(dst=mem, fid=1, dst_inst=event | 0x201, fevent=event | 6)),
        ("InstTimelineInfo", dict(inst_uid=event | 0x201, inst_id=0x4000000000000000 | (node << 40), mem_id=mem,
                                  size=4096, op_id=5, create=16900, ready=17000, destroy=19000, creator=0)),
        ("PartitionInfo", dict(op_id=7, part_op=1, create=19000, ready=19100, start=19200, stop=19300, creator=0,
                               critical=0, fevent=event | 7)),
        ("EventTriggerInfo", dict(result=event | 0x100, fevent=0, precondition=0, performed=6000)),
        ("ProfTaskInfo", dict(proc_id=proc, op_id=1, start=19400, stop=19500, creator=0, fevent=event | 8,
                              completion=1)),
    ]


def encode(value, ftype, width):
    if ftype == "string":
        return value.encode() + b"\0"
    if ftype == "uuid":
        return b""  # uuid_size is 0
    signed = ftype in ("timestamp_t", "long long")
    if signed:
        return int(value).to_bytes(width, "little", signed=True)
    return (int(value) % (1 << (8 * width))).to_bytes(width, "little")


def main(argv):
    out = argv[1]
    node, num_nodes, overrides = 0, 1, []
    args = iter(argv[2:])
    for a in args:
        if a == "--node":
            node = int(next(args))
        elif a == "--num-nodes":
            num_nodes = int(next(args))
        else:
            overrides.append(a)
    recs = records(node, num_nodes)
    for o in overrides:
        key, value = o.split("=", 1)
        name, field = key.split(".")
        hits = [fields for rname, fields in recs if rname == name]
        if not hits or field not in hits[0]:
            sys.exit(f"prof_log.py: no field {key}")
        hits[0][field] = int(value, 0)
    lay = layouts()
    body = b"FileType: BinaryLegionProf v: 1.0\n" + "".join(l + "\n" for l in HEADER).encode() + b"\n"
    for name, fields in recs:
        rid, layout = lay[name]
        body += rid.to_bytes(4, "little", signed=True)
        for fname, ftype, width in layout:
            body += encode(fields.get(fname, 0), ftype, width)
    with gzip.open(out, "wb") as f:
        f.write(body)


if __name__ == "__main__":
    main(sys.argv)
