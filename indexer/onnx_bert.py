"""The query model's ONNX graph written straight from the weights file, without torch.

A fresh data folder needs the ONNX query model (:mod:`indexer.onnx_query`) before the server can answer a
question by meaning. Exporting it through torch means importing torch, transformers and
sentence-transformers in a child process: 15–20 s on two shared cores, most of a fresh start. A BERT
encoder is a short, fixed recipe (embeddings, then layers of self-attention and a feed-forward block, each
followed by a residual layer norm), so this module writes that recipe as an ONNX graph with the ``onnx``
package and the weights read from ``model.safetensors`` by ``safetensors.numpy``: about a second.

The graph has the inputs and output of the torch export (``input_ids``, ``attention_mask``,
``token_type_ids`` -> ``last_hidden_state``), so :class:`indexer.onnx_query.OnnxQueryEncoder` runs either.
Whoever builds it checks it against vectors made by sentence-transformers before using it (the shipped
probe vectors, see :func:`indexer.shipped.probe_vectors`); anything but a plain BERT configuration is
refused (:class:`indexer.onnx_query.ExportRefused`) and the torch export stays the way.

>>> from rulesjudge.indexer.embed import bundled_model_path
>>> len(build_bytes(bundled_model_path())) > 80_000_000      # doctest: +SKIP
True
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


class ExportRefused(Exception):
    """The model is not one this module (or the torch export) can write faithfully (the torch path stays)."""

#: The configuration values this recipe reproduces (others are refused, not approximated).
SUPPORTED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}
OPSET = 17  # LayerNormalization is an operator from 17 on
IR_VERSION = 8  # what onnxruntime >= 1.14 reads


def read_config(folder: Path) -> dict[str, Any]:
    """The model's ``config.json``, refused (ExportRefused) unless it is a BERT this module can write.

    >>> from rulesjudge.indexer.embed import bundled_model_path
    >>> read_config(bundled_model_path())["num_hidden_layers"]
    6
    """
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ExportRefused(f"config.json: {error}") from None
    for key, wanted in SUPPORTED.items():
        if config.get(key, wanted) != wanted:
            raise ExportRefused(f"config.json {key}={config.get(key)!r}")
    if not (folder / "model.safetensors").is_file():
        raise ExportRefused("no model.safetensors")
    return config


def build_bytes(folder: Path) -> bytes:
    """The serialized ONNX model of the BERT encoder in ``folder`` (ExportRefused when it is not one)."""
    from safetensors.numpy import load_file

    config = read_config(folder)
    weights = load_file(str(folder / "model.safetensors"))
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
    try:
        return _Graph(config, {k.removeprefix(prefix): v for k, v in weights.items()}).serialize()
    except KeyError as error:

        raise ExportRefused(f"model.safetensors has no {error}") from None


class _Graph:
    """The nodes and initializers of one BERT encoder graph, named after the weights they use."""

    def __init__(self, config: dict[str, Any], weights: dict[str, Any]) -> None:
        self.config = config
        self.weights = weights
        self.nodes: list[Any] = []
        self.initializers: dict[str, Any] = {}
        self.count = 0

    # -- helpers -------------------------------------------------------------------------------------

    def constant(self, name: str, value: Any) -> str:
        from onnx import numpy_helper

        if name not in self.initializers:
            self.initializers[name] = numpy_helper.from_array(value, name)
        return name

    def weight(self, name: str, transpose: bool = False) -> str:
        import numpy as np

        value = np.ascontiguousarray(self.weights[name].T if transpose else self.weights[name], np.float32)
        return self.constant(name + (".T" if transpose else ""), value)

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        from onnx import helper

        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attributes))
        return out

    def linear(self, x: str, name: str) -> str:
        return self.op("Add", self.op("MatMul", x, self.weight(f"{name}.weight", True)),
                       self.weight(f"{name}.bias"))

    def layer_norm(self, x: str, name: str) -> str:
        return self.op("LayerNormalization", x, self.weight(f"{name}.weight"), self.weight(f"{name}.bias"),
                       axis=-1, epsilon=float(self.config.get("layer_norm_eps", 1e-12)))

    # -- the encoder ---------------------------------------------------------------------------------

    def serialize(self) -> bytes:
        import numpy as np
        from onnx import TensorProto, helper

        ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
        length = self.op("Gather", self.op("Shape", ids), self.constant("one", np.array(1, np.int64)), axis=0)
        positions = self.op("Range", self.constant("zero", np.array(0, np.int64)), length,
                            self.constant("one", np.array(1, np.int64)))
        words = self.op("Gather", self.weight("embeddings.word_embeddings.weight"), ids)
        kinds = self.op("Gather", self.weight("embeddings.token_type_embeddings.weight"), types)
        places = self.op("Gather", self.weight("embeddings.position_embeddings.weight"), positions)
        hidden = self.op("Add", self.op("Add", words, kinds), places)
        hidden = self.layer_norm(hidden, "embeddings.LayerNorm")
        # The additive mask of transformers' BERT: 0 where attended, the float's minimum where padded.
        floats = self.op("Cast", mask, to=TensorProto.FLOAT)
        blocked = self.op("Sub", self.constant("one_f", np.array(1.0, np.float32)), floats)
        additive = self.op("Mul", self.op("Unsqueeze", blocked, self.constant("axes_12", np.array([1, 2]))),
                           self.constant("min_f", np.array(np.finfo(np.float32).min, np.float32)))
        for layer in range(int(self.config["num_hidden_layers"])):
            hidden = self.encoder_layer(hidden, additive, f"encoder.layer.{layer}")
        self.nodes.append(helper.make_node("Identity", [hidden], ["last_hidden_state"]))
        dims = ["batch", "tokens"]
        graph = helper.make_graph(
            self.nodes, "bert-encoder",
            [helper.make_tensor_value_info(name, TensorProto.INT64, dims) for name in (ids, mask, types)],
            [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*dims, "hidden"])],
            list(self.initializers.values()))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="rulesjudge.indexer.onnx_bert")
        model.ir_version = IR_VERSION
        return bytes(model.SerializeToString())

    def encoder_layer(self, hidden: str, additive: str, name: str) -> str:
        import numpy as np

        heads = int(self.config["num_attention_heads"])
        width = int(self.config["hidden_size"]) // heads
        split = self.constant(f"split_{heads}", np.array([0, 0, heads, width], np.int64))
        merge = self.constant("merge", np.array([0, 0, heads * width], np.int64))

        def projected(part: str, perm: list[int]) -> str:
            shaped = self.op("Reshape", self.linear(hidden, f"{name}.attention.self.{part}"), split)
            return self.op("Transpose", shaped, perm=perm)

        query = projected("query", [0, 2, 1, 3])  # batch, head, token, width
        key = projected("key", [0, 2, 3, 1])  # batch, head, width, token
        value = projected("value", [0, 2, 1, 3])
        scale = self.constant(f"scale_{width}", np.array(1.0 / math.sqrt(width), np.float32))
        scores = self.op("Add", self.op("Mul", self.op("MatMul", query, key), scale), additive)
        context = self.op("MatMul", self.op("Softmax", scores, axis=-1), value)
        context = self.op("Reshape", self.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
        attended = self.op("Add", self.linear(context, f"{name}.attention.output.dense"), hidden)
        attended = self.layer_norm(attended, f"{name}.attention.output.LayerNorm")
        inner = self.linear(attended, f"{name}.intermediate.dense")
        # gelu, exactly as BERT's: x * (1 + erf(x / sqrt 2)) / 2
        root2 = self.constant("sqrt2", np.array(math.sqrt(2.0), np.float32))
        half = self.constant("half", np.array(0.5, np.float32))
        erf = self.op("Erf", self.op("Div", inner, root2))
        gelu = self.op("Mul", self.op("Mul", inner, half),
                       self.op("Add", erf, self.constant("one_f", np.array(1.0, np.float32))))
        out = self.linear(gelu, f"{name}.output.dense")
        return self.layer_norm(self.op("Add", out, attended), f"{name}.output.LayerNorm")
