//===- Einsum.cpp - Einsum as transposes, reshapes and batched matmuls ----===//
//
// Einsum (opset 12) with numpy semantics: explicit (`->`) or implicit output
// (the subscripts used exactly once, sorted, after any ellipsis dimensions),
// `...` broadcast across operands like numpy (aligned from the right, size 1
// stretching), a subscript repeated within one operand taking a diagonal,
// and subscripts absent from the output summed.
//
// The lowering works on operands annotated with one label per dimension:
// each operand first takes its diagonals and sums the labels nobody else
// needs, then the operands are contracted pairwise from left to right. One
// contraction transposes both sides to [batch, free, contracted] /
// [batch, contracted, free], folds each group into one dimension and is a
// single batched tosa.matmul. The result is finally transposed to the output
// order.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// A subscript: letters are their character code; the dimensions an
/// ellipsis stands for are kEllipsisBase + i, counted from the left of the
/// broadcast ellipsis shape (so equal labels line up from the right).
using Label = int;
using Labels = SmallVector<Label>;
constexpr Label kEllipsisBase = 1000;

/// One term of the equation as written: its letters, and where the ellipsis
/// sits (nullopt: none).
struct Term {
  SmallVector<char> letters;
  std::optional<size_t> ellipsisAt;
};

/// Parses "ab...c" (spaces already removed); fails on anything else.
std::optional<Term> parseTerm(StringRef text) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (text.substr(i).starts_with("...")) {
      if (term.ellipsisAt)
        return std::nullopt;
      term.ellipsisAt = term.letters.size();
      i += 2;
    } else if (llvm::isAlpha(ch)) {
      term.letters.push_back(ch);
    } else {
      return std::nullopt;
    }
  }
  return term;
}

/// The labels of a term whose ellipsis covers `ellipsisRank` dimensions of
/// a broadcast ellipsis shape of rank `totalEllipsis`.
Labels labelTerm(const Term &term, int64_t ellipsisRank,
                 int64_t totalEllipsis) {
  Labels labels;
  for (size_t i = 0; i <= term.letters.size(); ++i) {
    if (term.ellipsisAt == i)
      for (int64_t e = totalEllipsis - ellipsisRank; e < totalEllipsis; ++e)
        labels.push_back(kEllipsisBase + e);
    if (i < term.letters.size())
      labels.push_back(term.letters[i]);
  }
  return labels;
}

/// A value whose dimension i carries labels[i].
struct Operand {
  Value value;
  Labels labels;
};

class EinsumLowering {
public:
  explicit EinsumLowering(NodeContext &ctx) : ctx(ctx), t(ctx.tosa) {}

  LegalizeResult run();

private:
  LogicalResult parse();
  /// Replaces every repeated label of `op` by its diagonal.
  LogicalResult takeDiagonals(Operand &op);
  /// Sums the dimensions of `op` whose label is in `drop`.
  void sumOut(Operand &op, const llvm::SmallSet<Label, 8> &drop);
  /// Sums the labels of operand `i` (the accumulated result when it is the
  /// running left side) that no operand after `i`, nor the output, uses;
  /// `partner` is the operand it is about to be contracted with, if any.
  void sumUnneeded(Operand &op, size_t next, const Operand *partner);
  /// `op` transposed to `order` and broadcast to the common label sizes.
  Value arrange(const Operand &op, ArrayRef<Label> order);
  Operand contract(const Operand &lhs, const Operand &rhs, size_t next);
  bool usedFrom(Label label, size_t first) const;

  NodeContext &ctx;
  TosaBuilder &t;
  SmallVector<Operand> operands;
  Labels output;
  std::map<Label, int64_t> sizes; ///< broadcast size of every label
};

LogicalResult EinsumLowering::parse() {
  std::string equation;
  for (char ch : ctx.getString("equation", ""))
    if (ch != ' ')
      equation.push_back(ch);
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> texts;
  lhs.split(texts, ',');
  if (texts.size() != ctx.numInputs())
    return ctx.fail("equation '" + equation + "' has " + Twine(texts.size()) +
                    " input terms for " + Twine(ctx.numInputs()) + " inputs");

  SmallVector<Term> terms;
  int64_t totalEllipsis = 0;
  SmallVector<int64_t> ellipsisRanks;
  for (auto [i, text] : llvm::enumerate(texts)) {
    std::optional<Term> term = parseTerm(text);
    if (!term)
      return ctx.fail("cannot parse term '" + text + "' of equation '" +
                      equation + "'");
    int64_t rank = ctx.inputRank(i), letters = term->letters.size();
    int64_t ellipsisRank = rank - letters;
    if (ellipsisRank < 0 || (!term->ellipsisAt && ellipsisRank != 0))
      return ctx.fail("term '" + text + "' does not match input " + Twine(i) +
                      " of rank " + Twine(rank));
    totalEllipsis = std::max(totalEllipsis, ellipsisRank);
    ellipsisRanks.push_back(ellipsisRank);
    terms.push_back(*term);
  }

  std::map<Label, int> counts;
  for (auto [i, term] : llvm::enumerate(terms)) {
    Labels labels = labelTerm(term, ellipsisRanks[i], totalEllipsis);
    ArrayRef<int64_t> shape = ctx.inputShape(i);
    for (auto [label, dim] : llvm::zip_equal(labels, shape)) {
      int64_t &size = sizes.try_emplace(label, dim).first->second;
      // Sizes of one label broadcast like numpy's: equal, or 1 stretching
      // (for ellipsis dimensions and letters alike).
      if (size != dim && size != 1 && dim != 1)
        return ctx.fail("subscript sizes differ: " + Twine(size) + " and " +
                        Twine(dim) + " in equation '" + equation + "'");
      size = std::max(size, dim);
      if (label < kEllipsisBase)
        ++counts[label];
    }
    operands.push_back({ctx.input(i), std::move(labels)});
  }

  if (explicitOutput) {
    std::optional<Term> term = parseTerm(rhs);
    if (!term)
      return ctx.fail("cannot parse output '" + rhs + "' of equation '" +
                      equation + "'");
    output =
        labelTerm(*term, term->ellipsisAt ? totalEllipsis : 0, totalEllipsis);
    llvm::SmallSet<Label, 8> seen;
    for (Label label : output)
      if (!sizes.count(label) || !seen.insert(label).second)
        return ctx.fail("output subscript '" + Twine(char(label)) +
                        "' is repeated or not in any input");
  } else {
    // Implicit: the ellipsis dimensions, then the letters used exactly
    // once, in alphabetical order (std::map iterates sorted).
    for (int64_t e = 0; e < totalEllipsis; ++e)
      output.push_back(kEllipsisBase + e);
    for (auto [label, count] : counts)
      if (count == 1)
        output.push_back(label);
  }
  return success();
}

bool EinsumLowering::usedFrom(Label label, size_t first) const {
  if (llvm::is_contained(output, label))
    return true;
  for (size_t i = first; i < operands.size(); ++i)
    if (llvm::is_contained(operands[i].labels, label))
      return true;
  return false;
}

LogicalResult EinsumLowering::takeDiagonals(Operand &op) {
  for (size_t i = 0; i < op.labels.size(); ++i) {
    for (size_t j = i + 1; j < op.labels.size(); ++j) {
      if (op.labels[j] != op.labels[i])
        continue;
      // Move dimensions i and j last, fold them into n*n and keep every
      // (n+1)-th element: x[..., k, k].
      int64_t n = t.shapeOf(op.value)[i];
      if (t.shapeOf(op.value)[j] != n)
        return ctx.fail("diagonal subscript '" + Twine(char(op.labels[i])) +
                        "' spans dimensions of different sizes");
      SmallVector<int64_t> perm;
      Labels rest;
      for (size_t d = 0; d < op.labels.size(); ++d)
        if (d != i && d != j) {
          perm.push_back(d);
          rest.push_back(op.labels[d]);
        }
      perm.append({int64_t(i), int64_t(j)});
      Value v = t.transpose(op.value, perm);
      Shape shape(t.shapeOf(v).drop_back(2));
      shape.push_back(n * n);
      v = t.sliceStrided(t.reshape(v, shape), shape.size() - 1, 0, n, n + 1);
      rest.push_back(op.labels[i]);
      op = {v, rest};
      // Labels moved: start over (a label may appear three times).
      i = static_cast<size_t>(-1);
      break;
    }
  }
  return success();
}

void EinsumLowering::sumOut(Operand &op, const llvm::SmallSet<Label, 8> &drop) {
  SmallVector<int64_t> axes;
  Labels kept;
  Shape keptShape;
  for (auto [d, label] : llvm::enumerate(op.labels)) {
    if (drop.count(label)) {
      axes.push_back(d);
    } else {
      kept.push_back(label);
      keptShape.push_back(t.shapeOf(op.value)[d]);
    }
  }
  if (axes.empty())
    return;
  op = {t.reshape(t.reduceSum(op.value, axes), keptShape), kept};
}

void EinsumLowering::sumUnneeded(Operand &op, size_t next,
                                 const Operand *partner) {
  llvm::SmallSet<Label, 8> drop;
  for (Label label : op.labels)
    if (!usedFrom(label, next) &&
        !(partner && llvm::is_contained(partner->labels, label)))
      drop.insert(label);
  sumOut(op, drop);
}

Value EinsumLowering::arrange(const Operand &op, ArrayRef<Label> order) {
  SmallVector<int64_t> perm;
  Shape full;
  for (Label label : order) {
    perm.push_back(llvm::find(op.labels, label) - op.labels.begin());
    full.push_back(sizes[label]);
  }
  Value v = op.value;
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    v = t.transpose(v, perm);
  if (t.shapeOf(v) != ArrayRef<int64_t>(full))
    v = t.broadcastTo(v, full);
  return v;
}

Operand EinsumLowering::contract(const Operand &lhs, const Operand &rhs,
                                 size_t next) {
  // Shared labels still needed later are batch dimensions; the others are
  // summed by the matmul. Unshared labels are the free rows / columns.
  Labels batch, summed, rows, cols;
  for (Label label : lhs.labels) {
    if (!llvm::is_contained(rhs.labels, label))
      rows.push_back(label);
    else if (usedFrom(label, next))
      batch.push_back(label);
    else
      summed.push_back(label);
  }
  for (Label label : rhs.labels)
    if (!llvm::is_contained(lhs.labels, label))
      cols.push_back(label);

  auto sizeOf = [&](ArrayRef<Label> group) {
    int64_t n = 1;
    for (Label label : group)
      n *= sizes[label];
    return n;
  };
  int64_t b = sizeOf(batch), m = sizeOf(rows), k = sizeOf(summed),
          n = sizeOf(cols);
  Labels lhsOrder(batch), rhsOrder(batch);
  lhsOrder.append(rows);
  lhsOrder.append(summed);
  rhsOrder.append(summed);
  rhsOrder.append(cols);
  Value a = t.reshape(arrange(lhs, lhsOrder), {b, m, k});
  Value c = t.reshape(arrange(rhs, rhsOrder), {b, k, n});

  Labels labels(batch);
  labels.append(rows);
  labels.append(cols);
  Shape shape;
  for (Label label : labels)
    shape.push_back(sizes[label]);
  return {t.reshape(t.matmul(a, c), shape), labels};
}

LegalizeResult EinsumLowering::run() {
  if (failed(parse()))
    return failure();
  for (Operand &op : operands)
    if (failed(takeDiagonals(op)))
      return failure();

  Operand acc = operands[0];
  sumUnneeded(acc, 1, operands.size() > 1 ? &operands[1] : nullptr);
  for (size_t i = 1; i < operands.size(); ++i) {
    Operand rhs = operands[i];
    sumUnneeded(rhs, i + 1, &acc);
    sumUnneeded(acc, i + 1, &rhs);
    acc = contract(acc, rhs, i + 1);
  }
  // Labels shared by no one (single operand) were summed above; what is
  // left is the output's labels, to be put in order and broadcast (an
  // ellipsis dimension of size 1 in every input stays 1).
  return Values{arrange(acc, output)};
}

LegalizeResult einsum(NodeContext &ctx) {
  if (ctx.numInputs() == 0)
    return ctx.fail("expects at least one input");
  if (failed(ctx.requireInputs(ctx.numInputs())) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, ctx.numInputs())))
    return failure();
  for (unsigned i = 0; i < ctx.numInputs(); ++i)
    if (failed(ctx.requireNonEmpty(ctx.inputShape(i))))
      return failure();
  return EinsumLowering(ctx).run();
}

// clang-format off
const OpLegalization kEinsum[] = {
    {"Einsum", 12, einsum},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getEinsumLegalizations() { return kEinsum; }

} // namespace onnx_tosa
