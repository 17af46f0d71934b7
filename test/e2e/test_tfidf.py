"""TfIdfVectorizer (integer pools) against onnxruntime: every mode (TF,
IDF, TFIDF, with and without weights), unigrams with bigrams and trigrams,
skips, [C] and [B, C] inputs, an output column two pool n-grams share, and
a pool with n-grams outside [min_gram_length, max_gram_length]. The ONNX
backend suite covers TF only; a string pool is refused by name."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S

# 1-, 2- and 3-grams: ngram_counts gives where each length starts.
POOL = [3, 5, 7, 1, 4, 3, 3, 5, 5, 7, 1, 1, 2, 2, 1, 3, 5, 7]
COUNTS = [0, 5, 15]
# Pool order: unigrams 3 5 7 1 4; bigrams (3,3) (5,5) (7,1) (1,2) (2,1);
# the trigram (3,5,7): 11 n-grams. Column 6 is shared by two bigrams.
INDEXES = [0, 1, 2, 3, 4, 5, 6, 7, 6, 8, 9]
# One per pool n-gram, applied in the n-gram's output column (onnxruntime);
# the two n-grams that share column 6 have one weight.
WEIGHTS = [0.5, 1.5, 2.0, 0.25, 1.0, 3.0, 0.75, 1.25, 0.75, 0.125, 4.0]

CASES = {
    # name: (input shape, attributes)
    "tf_uni_bi_tri_skip2": ([24], dict(mode="TF", min_gram_length=1,
                                       max_gram_length=3, max_skip_count=2)),
    "tf_batch_bi_skip0": ([3, 16], dict(mode="TF", min_gram_length=2,
                                        max_gram_length=2, max_skip_count=0)),
    "idf_weights_batch": ([3, 16], dict(mode="IDF", min_gram_length=1,
                                        max_gram_length=2, max_skip_count=1,
                                        weights=WEIGHTS)),
    "idf_no_weights": ([24], dict(mode="IDF", min_gram_length=2,
                                  max_gram_length=3, max_skip_count=3)),
    "tfidf_weights": ([2, 20], dict(mode="TFIDF", min_gram_length=1,
                                    max_gram_length=3, max_skip_count=4,
                                    weights=WEIGHTS)),
    "tfidf_no_weights": ([24], dict(mode="TFIDF", min_gram_length=3,
                                    max_gram_length=3, max_skip_count=1)),
}


def make_model(path, shape, attrs, pool_strings=False):
    vi = helper.make_tensor_value_info
    out_shape = shape[:-1] + [max(INDEXES) + 1]
    kwargs = dict(attrs, ngram_counts=COUNTS, ngram_indexes=INDEXES)
    if pool_strings:
        kwargs["pool_strings"] = [str(v) for v in POOL]
    else:
        kwargs["pool_int64s"] = POOL
    node = helper.make_node("TfIdfVectorizer", ["x"], ["y"], name="tfidf",
                            **kwargs)
    g = helper.make_graph([node], "tfidf", [vi("x", TensorProto.INT32, shape)],
                          [vi("y", TensorProto.FLOAT, out_shape)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save_model(m, path)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_onnxruntime(name, compile_tool, run_tool, tmp_path):
    shape, attrs = CASES[name]
    model = tmp_path / f"{name}.onnx"
    make_model(model, shape, attrs)
    # Tokens 0..7, so that the pool's n-grams occur often, also skipped.
    rng = np.random.default_rng(S.make_models.name_seed(name))
    x = rng.integers(0, 8, size=shape).astype(np.int32)
    # The trigram once as it is and once with one token skipped.
    x[..., 4:7] = [3, 5, 7]
    x[..., 9:14:2] = [3, 5, 7]
    feeds = {"x": x}
    _, _, outputs = S.compile_and_run(compile_tool, run_tool, model, feeds,
                                      tmp_path)
    expected = S.onnxruntime_outputs(model, feeds)["y"]
    assert expected.any(), "the inputs should contain some pool n-grams"
    got = outputs["y"]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    # Counts are exact; weights multiply them once.
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=0)


def test_string_pool_is_refused_by_name(compile_tool, tmp_path):
    model = tmp_path / "strings.onnx"
    make_model(model, [24], dict(mode="TF", min_gram_length=1,
                                 max_gram_length=2, max_skip_count=0),
               pool_strings=True)
    proc = S.compile_model(compile_tool, model, tmp_path / "strings.otsa")
    S.assert_clean_error(proc, "onnx-tosa-compile")
    S.assert_mentions(proc, S.word("tfidf"), "the node's name")
    S.assert_mentions(proc, "pool_strings", "the attribute")


def test_shared_column_with_two_weights_is_refused(compile_tool, tmp_path):
    model = tmp_path / "weights.onnx"
    weights = list(WEIGHTS)
    weights[8] = 2.5  # column 6 would have two weights
    make_model(model, [24], dict(mode="IDF", min_gram_length=1,
                                 max_gram_length=2, max_skip_count=0,
                                 weights=weights))
    proc = S.compile_model(compile_tool, model, tmp_path / "weights.otsa")
    S.assert_clean_error(proc, "onnx-tosa-compile")
    S.assert_mentions(proc, S.word("tfidf"), "the node's name")
    S.assert_mentions(proc, r"output column 6", "the column")
