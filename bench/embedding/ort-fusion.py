"""What onnxruntime's own fusions do to the fp32 MiniLM graph on this CPU (measurement only, not shipped).

Variants of the same model: as exported (onnxruntime then applies its level-'all' C++ optimizer at load, like the
embedder does), and the graphs onnxruntime's Python transformer optimizer produces (com.microsoft Attention with
packed QKV weights, SkipLayerNormalization, BiasGelu) in full and one fusion at a time. Times are best-of-R
alternating runs of one single-threaded session; the profile is kernel time per op type; agreement is the max
abs difference of last_hidden_state against the unfused graph.

  npx tsx bench/embedding/write-test-model.ts /tmp/minilm/model.onnx
  python3 -m venv /tmp/ortpy && /tmp/ortpy/bin/pip install onnxruntime==1.30.0 onnx sympy numpy
  /tmp/ortpy/bin/python bench/embedding/ort-fusion.py /tmp/minilm/model.onnx [--rows 1,4,32] [--rounds 20]
"""
import argparse, collections, json, os, time

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers import optimizer
from onnxruntime.transformers.fusion_options import FusionOptions

p = argparse.ArgumentParser()
p.add_argument("model")
p.add_argument("--rows", default="1,4,32")
p.add_argument("--rounds", type=int, default=20)
a = p.parse_args()
out_dir = os.path.dirname(os.path.abspath(a.model))
S = 256


def op_counts(path):
    c = collections.Counter((n.domain or "ai.onnx") + ":" + n.op_type for n in onnx.load(path).graph.node)
    return dict(sorted(c.items(), key=lambda kv: -kv[1]))


def session(path, profile=None):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if profile:
        so.enable_profiling = True
        so.profile_file_prefix = profile
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


# 1. What onnxruntime's C++ optimizer makes of the graph at load (what the embedder runs).
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
so.optimized_model_filepath = os.path.join(out_dir, "model.ort-all.onnx")
ort.InferenceSession(a.model, so, providers=["CPUExecutionProvider"])
print("onnxruntime level 'all' at load:", op_counts(so.optimized_model_filepath))

# 2. The Python transformer optimizer's graphs.
variants = {"as exported": a.model}
for name, off in [
    ("full fusion (Attention+SkipLayerNorm+BiasGelu)", []),
    ("Attention only", ["enable_skip_layer_norm", "enable_bias_skip_layer_norm"]),
    ("SkipLayerNorm only", ["enable_attention"]),
]:
    opts = FusionOptions("bert")
    for flag in off:
        setattr(opts, flag, False)
    m = optimizer.optimize_model(a.model, model_type="bert", num_heads=12, hidden_size=384, opt_level=0, optimization_options=opts)
    path = os.path.join(out_dir, "model." + name.split(" ")[0].lower() + ".onnx")
    m.save_model_to_file(path)
    print(f"{name}: {dict((k, v) for k, v in m.get_fused_operator_statistics().items() if v)}")
    variants[name] = path



def bias_into_gemm(src, dst):
    """MatMul(x[..., K], W[K, N]) -> Add(b[N]) as Reshape(x, [-1, K]) -> Gemm(., W, b) -> Reshape(., x.shape[:-1] + [N])
    (onnxruntime's MatMulAddFusion does this only for static shapes)."""
    m = onnx.load(src)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    consumers = collections.defaultdict(list)
    for n in g.node:
        for i in n.input:
            consumers[i].append(n)
    extra_inits, shapes, drop, replaced = [], {}, set(), {}

    def const(name, values):
        if name not in {t.name for t in extra_inits}:
            extra_inits.append(onnx.numpy_helper.from_array(np.array(values, np.int64), name))
        return name

    def lead_shape(x, n_out, emit):  # Concat(Shape(x)[:-1], [N]), emitted once per input tensor and width
        if x not in shapes:
            emit.append(onnx.helper.make_node("Shape", [x], [x + "_gm_shape"]))
            emit.append(onnx.helper.make_node("Slice", [x + "_gm_shape", const("gm_0", [0]), const("gm_m1", [-1])], [x + "_gm_lead"]))
            shapes[x] = set()
        out = f"{x}_gm_shape_{n_out}"
        if n_out not in shapes[x]:
            emit.append(onnx.helper.make_node("Concat", [x + "_gm_lead", const(f"gm_n{n_out}", [n_out])], [out], axis=0))
            shapes[x].add(n_out)
        return out

    for n in g.node:
        users = consumers.get(n.output[0], []) if n.op_type == "MatMul" else []
        if n.op_type != "MatMul" or n.input[1] not in inits or len(users) != 1 or users[0].op_type != "Add":
            continue
        add = users[0]
        bias = [i for i in add.input if i != n.output[0]][0]
        if bias not in inits or len(inits[bias].dims) != 1:
            continue
        k, n_out = inits[n.input[1]].dims
        x2, y2 = n.output[0] + "_gm_x2", n.output[0] + "_gm_y2"
        emit = []
        shape = lead_shape(n.input[0], n_out, emit)
        replaced[id(n)] = emit + [
            onnx.helper.make_node("Reshape", [n.input[0], const(f"gm_k{k}", [-1, k])], [x2]),
            onnx.helper.make_node("Gemm", [x2, n.input[1], bias], [y2]),
            onnx.helper.make_node("Reshape", [y2, shape], [add.output[0]]),
        ]
        drop.add(id(add))
    nodes = []
    for n in g.node:
        if id(n) in drop:
            continue
        nodes.extend(replaced.get(id(n), [n]))
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(extra_inits)
    onnx.save(m, dst)
    return len(replaced)


gemm_path = os.path.join(out_dir, "model.gemm-bias.onnx")
print(f"bias folded into Gemm: {bias_into_gemm(a.model, gemm_path)} MatMul+Add pairs")
variants["bias folded into Gemm"] = gemm_path

flops_per_row = 6 * S * (2 * (4 * 384 * 384 + 2 * 384 * 1536) + 2 * 2 * S * 384)
rng = np.random.default_rng(0)
for rows in [int(r) for r in a.rows.split(",")]:
    ids = rng.integers(1000, 29000, size=(rows, S)).astype(np.int64)
    ids[:, 0] = 101
    mask = np.ones((rows, S), np.int64)
    mask[-1, 200:] = 0  # one padded row, so the mask path is exercised
    feeds = dict(input_ids=ids, attention_mask=mask, token_type_ids=np.zeros((rows, S), np.int64))
    sessions = {k: session(v) for k, v in variants.items()}
    ref = sessions["as exported"].run(None, feeds)[0]
    best = {k: 1e9 for k in sessions}
    for _ in range(a.rounds if rows < 8 else max(3, a.rounds // 5)):
        for k, s in sessions.items():
            t = time.perf_counter()
            s.run(None, feeds)
            best[k] = min(best[k], time.perf_counter() - t)
    print(f"\n{rows} x {S} tokens ({rows * S} rows per MatMul), 1 thread, best of alternating runs:")
    for k, s in sessions.items():
        diff = float(np.abs(s.run(None, feeds)[0] - ref).max())
        print(f"  {k:48s} {best[k] * 1000:8.1f} ms  {rows * flops_per_row / best[k] / 1e9:6.1f} GFLOP/s  max|diff| {diff:.1e}")
    for k in ["as exported", "full fusion (Attention+SkipLayerNorm+BiasGelu)"]:
        s = session(variants[k], profile=os.path.join(out_dir, "profile"))
        n = 10 if rows < 8 else 2
        for _ in range(n):
            s.run(None, feeds)
        events = json.load(open(s.end_profiling()))
        by_op, total = collections.Counter(), 0
        for e in events:
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
                by_op[e["args"]["op_name"]] += e["dur"]
                total += e["dur"]
        top = ", ".join(f"{op} {100 * us / total:.1f}%" for op, us in by_op.most_common(8))
        print(f"  profile, {k}: {total / n / 1000:.1f} ms kernel time per run: {top}")
