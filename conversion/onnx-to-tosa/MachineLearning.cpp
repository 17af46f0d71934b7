//===- MachineLearning.cpp - The ai.onnx.ml domain
//-------------------------===//
//
// Classic machine-learning operators of the ai.onnx.ml domain, and
// ai.onnx's TfIdfVectorizer. Their parameters are attributes, so what is
// data-dependent in a general runtime (the threshold, the tree structure,
// the n-gram pool) is known here at compile time and becomes constants and a
// fixed sequence of elementwise ops.
//
// TfIdfVectorizer counts, per row of integer tokens, the n-grams of its pool
// (tokens d apart, d = 1 .. max_skip_count + 1; unigrams once): for one n
// and d, the n shifted slices of the row are compared with the pool's
// n-grams of that length at once ([rows, positions, n-grams]), and-ed,
// and summed over the positions. A constant 0/1 matrix then moves each pool
// n-gram's count to its output column (adding where two share one, as the
// reference does), and the mode applies the weights.
//
// TreeEnsemble evaluates every tree at once without walking it: all split
// conditions are computed for every sample ([N, nodes]), and a leaf is
// reached exactly when every condition on its path has the polarity the path
// needs. That test is one matmul with a constant [nodes, paths] matrix
// (-1 where a path needs the condition true, +1 where it needs it false):
// a path is reached iff the product equals minus its number of "true"
// requirements. The reached leaves' weights are then aggregated per target
// (a second matmul for SUM/AVERAGE, a masked reduction for MIN/MAX). The
// cost grows with nodes x paths, so very large forests are refused.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <vector>

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr llvm::StringLiteral kMlDomain = "ai.onnx.ml";

/// Binarizer: 1 where X > threshold, else 0, in X's type. For integer X,
/// X > t is X > floor(t), which keeps the comparison exact in integers.
LegalizeResult binarizer(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  double threshold = ctx.getFloat("threshold", 0.0f);
  if (!TosaBuilder::isFloat(x)) {
    if (std::isnan(threshold))
      return Values{t.splat(t.shapeOf(x), t.elementTypeOf(x), 0.0)};
    double bits = t.elementTypeOf(x).getIntOrFloatBitWidth();
    double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1) - 1;
    threshold = std::clamp(std::floor(threshold), lo - 1, hi);
    // Every element exceeds a threshold below the type's range.
    if (threshold < lo)
      return Values{t.splat(t.shapeOf(x), t.elementTypeOf(x), 1.0)};
  }
  Value above = t.compare<tosa::GreaterOp>(x, t.scalarLike(x, threshold));
  return Values{t.indicator(above, t.elementTypeOf(x))};
}

/// ArrayFeatureExtractor(X, Y): X[..., Y] with Y flattened; a 1-D X gives a
/// [1, |Y|] result (as onnxruntime and the ONNX reference do). Constant
/// indices are checked here; run-time ones are clamped into [0, D) so that
/// an out-of-range index never reads outside X (onnxruntime rejects it).
LegalizeResult arrayFeatureExtractor(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireElementType(1, Elt::Int)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> in = t.shapeOf(x);
  if (in.empty())
    return ctx.fail("X must have rank at least 1");
  int64_t d = in.back(), outer = product(in.drop_back());
  int64_t w = product(ctx.inputShape(1));
  Shape outShape = in.size() == 1 ? Shape{1} : Shape(in.drop_back());
  outShape.push_back(w);
  if (failed(ctx.requireNonEmpty(outShape)))
    return failure();

  if (std::optional<SmallVector<int64_t>> indices = ctx.constantInts(1)) {
    for (int64_t idx : *indices)
      if (idx < 0 || idx >= d)
        return ctx.fail("index " + Twine(idx) + " is out of range [0, " +
                        Twine(d) + ")");
    return Values{
        t.reshape(t.gatherAxis(x, in.size() - 1, *indices), outShape)};
  }
  if (t.elementTypeOf(x).isInteger(1))
    return ctx.fail("boolean data cannot be gathered in TOSA");
  Type i32 = t.getBuilder().getI32Type();
  Value idx = t.reshape(t.cast(ctx.input(1), i32), {1, w});
  idx = t.clamp(idx, 0, d - 1);
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({outer, w, 1}, t.elementTypeOf(x)),
      t.reshape(x, {outer, d, 1}), t.tile(idx, {outer, 1}));
  return Values{t.reshape(gathered, outShape)};
}

/// TreeEnsemble's nodes_modes (ai.onnx.ml opset 5).
enum class SplitMode : int64_t { Leq, Lt, Gte, Gt, Eq, Neq, Member };

/// Larger forests would need a per-level walk rather than the path matrix.
constexpr int64_t kMaxTreePathEntries = int64_t(1) << 24;

/// One root-to-leaf path: the nodes it passes (with the outcome it needs)
/// and the leaf it ends in.
struct TreePath {
  SmallVector<std::pair<int64_t, bool>> conditions;
  int64_t leaf;
};

/// Values of a TENSOR attribute (or an absent one: empty).
SmallVector<double> tensorAttrValues(NodeContext &ctx, StringRef name) {
  if (auto attr = dyn_cast_or_null<DenseElementsAttr>(ctx.getAttr(name)))
    return toDoubles(attr);
  return {};
}

/// TreeEnsemble(X) -> Y [N, n_targets], as the ONNX reference computes it.
/// Member sets are taken from membership_values in node order (NaN
/// separated). post_transform must be NONE (the reference implements no
/// other).
LegalizeResult treeEnsemble(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> xShape = t.shapeOf(x);
  if (xShape.size() != 2)
    return ctx.fail("X must have rank 2 (samples, features)");
  int64_t n = xShape[0], features = xShape[1];

  SmallVector<double> splits = tensorAttrValues(ctx, "nodes_splits");
  SmallVector<double> modesD = tensorAttrValues(ctx, "nodes_modes");
  SmallVector<double> weights = tensorAttrValues(ctx, "leaf_weights");
  SmallVector<double> members = tensorAttrValues(ctx, "membership_values");
  Shape featureIds = ctx.getInts("nodes_featureids");
  Shape trueIds = ctx.getInts("nodes_truenodeids");
  Shape falseIds = ctx.getInts("nodes_falsenodeids");
  Shape trueLeafs = ctx.getInts("nodes_trueleafs");
  Shape falseLeafs = ctx.getInts("nodes_falseleafs");
  Shape targetIds = ctx.getInts("leaf_targetids");
  Shape roots = ctx.getInts("tree_roots");
  Shape tracksTrue = ctx.getInts("nodes_missing_value_tracks_true");
  int64_t targets = ctx.getInt("n_targets", 0);
  int64_t aggregate = ctx.getInt("aggregate_function", 1);
  if (ctx.getInt("post_transform", 0) != 0)
    return ctx.fail("only post_transform NONE (0) is supported");
  if (aggregate < 0 || aggregate > 3)
    return ctx.fail("aggregate_function must be 0 (AVERAGE), 1 (SUM), "
                    "2 (MIN) or 3 (MAX)");
  if (targets < 1)
    return ctx.fail("n_targets must be positive");

  int64_t nodes = splits.size(), leaves = weights.size();
  auto sized = [&](size_t size, int64_t want) {
    return static_cast<int64_t>(size) == want;
  };
  if (nodes == 0 || leaves == 0 || roots.empty() ||
      !sized(modesD.size(), nodes) || !sized(featureIds.size(), nodes) ||
      !sized(trueIds.size(), nodes) || !sized(falseIds.size(), nodes) ||
      !sized(trueLeafs.size(), nodes) || !sized(falseLeafs.size(), nodes) ||
      !sized(targetIds.size(), leaves) ||
      (!tracksTrue.empty() && !sized(tracksTrue.size(), nodes)))
    return ctx.fail("the nodes_* attributes must all have one entry per "
                    "node and leaf_targetids one per leaf weight");
  SmallVector<SplitMode> modes;
  for (double m : modesD) {
    if (m < 0 || m > 6)
      return ctx.fail("nodes_modes must be in [0, 6]");
    modes.push_back(static_cast<SplitMode>(m));
  }
  for (int64_t f : featureIds)
    if (f < 0 || f >= features)
      return ctx.fail("feature id " + Twine(f) + " is out of range [0, " +
                      Twine(features) + ")");
  for (int64_t id : targetIds)
    if (id < 0 || id >= targets)
      return ctx.fail("target id " + Twine(id) + " is out of range [0, " +
                      Twine(targets) + ")");

  // The member set of every MEMBER node, in node order.
  SmallVector<SmallVector<double>> sets(nodes);
  size_t next = 0;
  int64_t widest = 0;
  for (int64_t i = 0; i < nodes; ++i) {
    if (modes[i] != SplitMode::Member)
      continue;
    for (; next < members.size() && !std::isnan(members[next]); ++next)
      sets[i].push_back(members[next]);
    if (next++ >= members.size())
      return ctx.fail("membership_values must hold one NaN-terminated set "
                      "per set-membership node");
    widest = std::max<int64_t>(widest, sets[i].size());
  }

  // Every root-to-leaf path (a leaf reached twice counts twice, as the
  // reference builds it twice). Depth is bounded to catch cycles.
  SmallVector<TreePath> paths;
  SmallVector<std::pair<int64_t, bool>> stack;
  std::string bad;
  std::function<void(int64_t, bool)> walk = [&](int64_t id, bool isLeaf) {
    if (!bad.empty())
      return;
    if (id < 0 || id >= (isLeaf ? leaves : nodes)) {
      bad = (isLeaf ? "leaf id " : "node id ") + std::to_string(id) +
            " is out of range";
      return;
    }
    if (isLeaf) {
      paths.push_back({stack, id});
      return;
    }
    if (static_cast<int64_t>(stack.size()) >= nodes) {
      bad = "the trees have a cycle";
      return;
    }
    stack.push_back({id, true});
    walk(trueIds[id], trueLeafs[id] != 0);
    stack.back().second = false;
    walk(falseIds[id], falseLeafs[id] != 0);
    stack.pop_back();
  };
  for (int64_t root : roots) {
    if (root < 0 || root >= nodes)
      return ctx.fail("tree root " + Twine(root) + " is out of range");
    // A tree that is one leaf: both branches name the same leaf (reference).
    bool leafRoot =
        trueLeafs[root] && falseLeafs[root] && trueIds[root] == falseIds[root];
    walk(root, leafRoot);
  }
  if (!bad.empty())
    return ctx.fail(bad);
  int64_t count = paths.size();
  if (count * std::max<int64_t>(nodes, targets) > kMaxTreePathEntries)
    return ctx.fail("the ensemble has " + Twine(count) + " leaf paths over " +
                    Twine(nodes) + " nodes, too many to evaluate at once");

  // Conditions [N, nodes]: X's feature of each node against its split.
  Type elt = t.elementTypeOf(x);
  Type f32 = t.getBuilder().getF32Type();
  Type i1 = t.getBuilder().getI1Type();
  Value xf = t.gatherAxis(x, 1, featureIds);
  Value split =
      t.constant(fromDoubles(RankedTensorType::get({1, nodes}, elt), splits));
  auto modeMask = [&](SplitMode mode) {
    SmallVector<int64_t> mask;
    for (SplitMode m : modes)
      mask.push_back(m == mode);
    return t.constant(fromInts(RankedTensorType::get({1, nodes}, i1), mask));
  };
  auto notOf = [&](Value v) { return t.unary<tosa::LogicalNotOp>(v); };
  Value cond;
  for (SplitMode mode :
       {SplitMode::Leq, SplitMode::Lt, SplitMode::Gte, SplitMode::Gt,
        SplitMode::Eq, SplitMode::Neq, SplitMode::Member}) {
    if (!llvm::is_contained(modes, mode))
      continue;
    Value c;
    switch (mode) {
    case SplitMode::Leq:
      c = t.compare<tosa::GreaterEqualOp>(split, xf);
      break;
    case SplitMode::Lt:
      c = t.compare<tosa::GreaterOp>(split, xf);
      break;
    case SplitMode::Gte:
      c = t.compare<tosa::GreaterEqualOp>(xf, split);
      break;
    case SplitMode::Gt:
      c = t.compare<tosa::GreaterOp>(xf, split);
      break;
    case SplitMode::Eq:
      c = t.compare<tosa::EqualOp>(xf, split);
      break;
    case SplitMode::Neq:
      c = notOf(t.compare<tosa::EqualOp>(xf, split));
      break;
    case SplitMode::Member: {
      // NaN pads the shorter sets: it equals nothing.
      SmallVector<double> table(nodes * widest,
                                std::numeric_limits<double>::quiet_NaN());
      for (int64_t i = 0; i < nodes; ++i)
        llvm::copy(sets[i], table.begin() + i * widest);
      Value set = t.constant(
          fromDoubles(RankedTensorType::get({1, nodes, widest}, elt), table));
      Value eq = t.compare<tosa::EqualOp>(t.reshape(xf, {n, nodes, 1}), set);
      c = t.reshape(t.reduce<tosa::ReduceAnyOp>(eq, {2}), {n, nodes});
      break;
    }
    }
    bool only = llvm::all_of(modes, [&](SplitMode m) { return m == mode; });
    cond =
        !cond ? (only ? c
                      : t.select(modeMask(mode), c, t.splat({n, nodes}, i1, 0)))
              : t.select(modeMask(mode), c, cond);
  }
  if (llvm::any_of(tracksTrue, [](int64_t v) { return v != 0; })) {
    Value tracks =
        t.constant(fromInts(RankedTensorType::get({1, nodes}, i1), tracksTrue));
    Value missing = notOf(t.compare<tosa::EqualOp>(xf, xf));
    cond = t.binary<tosa::LogicalOrOp>(
        cond, t.binary<tosa::LogicalAndOp>(missing, tracks));
  }

  // Reached paths [N, paths]: cond @ D == -(number of "true" requirements).
  SmallVector<double> d(nodes * count, 0.0), needTrue(count, 0.0);
  for (int64_t p = 0; p < count; ++p)
    for (auto [node, outcome] : paths[p].conditions) {
      d[node * count + p] += outcome ? -1.0 : 1.0;
      needTrue[p] -= outcome ? 1.0 : 0.0;
    }
  Value condF = t.indicator(cond, f32);
  Value dm =
      t.constant(fromDoubles(RankedTensorType::get({1, nodes, count}, f32), d));
  Value m = t.matmul(t.reshape(condF, {1, n, nodes}), dm);
  Value reached = t.compare<tosa::EqualOp>(
      m, t.constant(
             fromDoubles(RankedTensorType::get({1, 1, count}, f32), needTrue)));

  // Aggregate the reached leaves' weights per target.
  Value y;
  if (aggregate <= 1) {
    SmallVector<double> w(count * targets, 0.0);
    double scale = aggregate == 0 ? 1.0 / roots.size() : 1.0;
    for (int64_t p = 0; p < count; ++p)
      w[p * targets + targetIds[paths[p].leaf]] =
          weights[paths[p].leaf] * scale;
    Value reachedF = t.indicator(reached, f32);
    y = t.matmul(reachedF,
                 t.constant(fromDoubles(
                     RankedTensorType::get({1, count, targets}, f32), w)));
  } else {
    // The reference starts MIN at the type's largest value, MAX at its
    // lowest, so targets no reached leaf names keep those.
    double fill = aggregate == 2 ? std::numeric_limits<float>::max()
                                 : std::numeric_limits<float>::lowest();
    SmallVector<double> w(count * targets, fill);
    for (int64_t p = 0; p < count; ++p)
      w[p * targets + targetIds[paths[p].leaf]] = weights[paths[p].leaf];
    Value table = t.constant(
        fromDoubles(RankedTensorType::get({1, count, targets}, f32), w));
    Value picked = t.select(t.reshape(reached, {n, count, 1}), table,
                            t.splat({1, 1, 1}, f32, fill));
    y = aggregate == 2 ? t.reduce<tosa::ReduceMinOp>(picked, {1})
                       : t.reduceMax(picked, {1});
  }
  return Values{t.cast(t.reshape(y, {n, targets}), elt)};
}

/// TfIdfVectorizer with an integer pool (pool_int64s) and integer X of
/// shape [C] or [B, C]: Y[.., o] is the number of times the pool n-grams
/// that ngram_indexes maps to o occur in the row (TF), 0/1 or the weight
/// where they do (IDF), or count times weight (TFIDF); a pool n-gram's
/// weight applies in its output column.
LegalizeResult tfIdfVectorizer(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Int)))
    return failure();
  if (ctx.hasAttr("pool_strings"))
    return ctx.fail("pool_strings: string pools are not supported (X of "
                    "strings cannot be a model input here)");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = ctx.inputRank(0);
  if (rank > 2)
    return ctx.fail("X must have rank 1 ([C]) or 2 ([B, C]), got " +
                    Twine(rank));
  int64_t minN = ctx.getInt("min_gram_length", 0);
  int64_t maxN = ctx.getInt("max_gram_length", 0);
  int64_t maxSkip = ctx.getInt("max_skip_count", 0);
  std::string mode = ctx.getString("mode", "");
  Shape starts = ctx.getInts("ngram_counts");
  Shape indexes = ctx.getInts("ngram_indexes");
  Shape pool = ctx.getInts("pool_int64s");
  SmallVector<float> weights = ctx.getFloats("weights");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return ctx.fail("mode must be TF, IDF or TFIDF, got '" + mode + "'");
  if (minN < 1 || maxN < minN || maxSkip < 0)
    return ctx.fail("needs 1 <= min_gram_length (" + Twine(minN) +
                    ") <= max_gram_length (" + Twine(maxN) +
                    ") and max_skip_count >= 0 (" + Twine(maxSkip) + ")");
  if (indexes.empty() || llvm::any_of(indexes, [](int64_t i) { return i < 0; }))
    return ctx.fail("ngram_indexes must be non-empty and non-negative");
  int64_t outputs = *llvm::max_element(indexes) + 1;
  // One weight per pool n-gram (the spec's length, as onnxruntime reads
  // them), applied in the output column the n-gram's count goes to. (The
  // ONNX reference implementation takes weight i for output column i: the
  // same where ngram_indexes[i] == i.)
  if (!weights.empty() && weights.size() != indexes.size())
    return ctx.fail("weights has " + Twine(weights.size()) +
                    " entries; it needs one per pool n-gram (" +
                    Twine(indexes.size()) + ")");
  SmallVector<double> columnWeight(outputs, 1.0);
  SmallVector<bool> weighted(outputs, false);
  for (size_t p = 0; p < weights.size(); ++p) {
    int64_t o = indexes[p];
    if (weighted[o] && columnWeight[o] != weights[p])
      return ctx.fail("two pool n-grams with different weights share "
                      "output column " +
                      Twine(o) + ": which weight applies is not defined");
    columnWeight[o] = weights[p];
    weighted[o] = true;
  }
  for (int64_t v : pool)
    if (v < std::numeric_limits<int32_t>::min() ||
        v > std::numeric_limits<int32_t>::max())
      return ctx.fail("pool value " + Twine(v) +
                      " does not fit in 32 bits (integers are computed in "
                      "32 bits)");

  // The pool's n-grams by length: ngram_counts[k] is where the (k+1)-grams
  // start; `first[n]` is the pool order of the first n-gram of length n.
  int64_t total = pool.size();
  SmallVector<int64_t> first(starts.size() + 2, 0), count(starts.size() + 2, 0);
  int64_t order = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t n = k + 1;
    int64_t begin = starts[k];
    int64_t end = k + 1 < starts.size() ? starts[k + 1] : total;
    if (begin < 0 || end < begin || end > total || (end - begin) % n != 0)
      return ctx.fail("ngram_counts " + Twine(k) + " (" + Twine(begin) +
                      ") does not start a whole number of " + Twine(n) +
                      "-grams within pool_int64s (" + Twine(total) +
                      " values)");
    first[n] = order;
    count[n] = (end - begin) / n;
    order += count[n];
    // The reference keeps one entry per distinct n-gram.
    std::set<std::vector<int64_t>> seen;
    for (int64_t g = 0; g < count[n]; ++g)
      if (!seen.insert(std::vector<int64_t>(pool.begin() + begin + g * n,
                                            pool.begin() + begin + g * n + n))
               .second)
        return ctx.fail("pool_int64s holds a " + Twine(n) + "-gram twice");
  }
  if (order != static_cast<int64_t>(indexes.size()))
    return ctx.fail("ngram_indexes has " + Twine(indexes.size()) +
                    " entries for the pool's " + Twine(order) + " n-grams");

  int64_t rows = rank == 2 ? ctx.inputShape(0)[0] : 1;
  int64_t cols = rank == 0 ? 1 : ctx.inputShape(0).back();
  Type f32 = Float32Type::get(x.getContext());
  Shape outShape = rank == 2 ? Shape{rows, outputs} : Shape{outputs};
  x = t.reshape(t.widenToI32(x), {rows, cols, 1});
  Type i32 = t.elementTypeOf(x);

  // counts[p]: [rows, 1, 1] per pool n-gram in pool order, or null for 0.
  SmallVector<Value> perLength;
  SmallVector<int64_t> lengths;
  for (int64_t n = minN; n <= std::min<int64_t>(maxN, starts.size()); ++n) {
    if (count[n] == 0)
      continue;
    int64_t begin = starts[n - 1];
    Value sum;
    for (int64_t d = 1; d <= (n == 1 ? 1 : maxSkip + 1); ++d) {
      int64_t positions = cols - (n - 1) * d;
      if (positions <= 0)
        break;
      Value all;
      for (int64_t j = 0; j < n; ++j) {
        SmallVector<int32_t> tokens;
        for (int64_t g = 0; g < count[n]; ++g)
          tokens.push_back(pool[begin + g * n + j]);
        Value pattern = t.constant(
            DenseElementsAttr::get(RankedTensorType::get({1, 1, count[n]}, i32),
                                   ArrayRef<int32_t>(tokens)));
        Value eq = t.compare<tosa::EqualOp>(t.sliceAxis(x, 1, j * d, positions),
                                            pattern);
        all = all ? t.binary<tosa::LogicalAndOp>(all, eq) : eq;
      }
      Value hits = t.reduceSum(t.indicator(all, f32), {1});
      sum = sum ? t.add(sum, hits) : hits;
    }
    if (!sum)
      continue;
    perLength.push_back(sum); // [rows, 1, count[n]]
    lengths.push_back(n);
  }

  // Each counted n-gram's count to its output column(s).
  Value y;
  if (!perLength.empty()) {
    Value counts =
        perLength.size() == 1 ? perLength.front() : t.concat(perLength, 2);
    int64_t counted = t.shapeOf(counts)[2];
    SmallVector<double> move(counted * outputs, 0.0);
    int64_t row = 0;
    for (int64_t n : lengths)
      for (int64_t g = 0; g < count[n]; ++g, ++row)
        move[row * outputs + indexes[first[n] + g]] += 1.0;
    y = t.matmul(t.reshape(counts, {1, rows, counted}),
                 t.constant(fromDoubles(
                     RankedTensorType::get({1, counted, outputs}, f32), move)));
    y = t.reshape(y, {rows, outputs});
  } else {
    y = t.splat({rows, outputs}, f32, 0.0);
  }
  if (mode != "TF") {
    Value w = t.constant(
        fromDoubles(RankedTensorType::get({1, outputs}, f32), columnWeight));
    y = mode == "IDF"
            ? t.select(t.compare<tosa::GreaterOp>(y, t.scalarLike(y, 0.0)),
                       t.broadcastTo(w, {rows, outputs}), t.scalarLike(y, 0.0))
            : t.mul(y, w);
  }
  return Values{t.reshape(y, outShape)};
}

// clang-format off
const OpLegalization kMachineLearning[] = {
    {"Binarizer", 1, binarizer, kMlDomain},
    {"ArrayFeatureExtractor", 1, arrayFeatureExtractor, kMlDomain},
    {"TreeEnsemble", 5, treeEnsemble, kMlDomain},
    {"TfIdfVectorizer", 9, tfIdfVectorizer},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getMachineLearningLegalizations() {
  return kMachineLearning;
}

} // namespace onnx_tosa
