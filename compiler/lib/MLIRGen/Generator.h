//===- Generator.h - State of tile code generation ---------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Private to MLIRGen. Code generation evaluates the kernel's AST like an
// interpreter whose values are either MLIR values (run-time scalars and tiles)
// or compile-time Python values (constexprs, dtypes, modules, functions).
// Compile-time values fold; run-time values become tile, arith and math ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_MLIRGEN_GENERATOR_H
#define TILEC_LIB_MLIRGEN_GENERATOR_H

#include "tilec/Frontend/AST.h"
#include "tilec/MLIRGen/MLIRGen.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>

namespace tilec {

/// A value during code generation.
struct TValue {
  enum class Kind {
    Value,    ///< an MLIR value: a run-time scalar or tile
    Int,      ///< a constexpr integer
    Float,    ///< a constexpr float
    Bool,     ///< a constexpr bool
    None,     ///< Python's None
    String,   ///< a constexpr string
    DType,    ///< a dtype such as tl.float32
    Module,   ///< a module: "triton", "triton.language", "triton.language.math"
    Function, ///< a @triton.jit function of the file
    Tuple,    ///< a tuple or list of values
    Builtin,  ///< a Python builtin function: "range", "min", "float"...
    Method,   ///< a bound method of a tile value, e.g. `x.to`
  };
  Kind kind = Kind::None;
  mlir::Value value;
  int64_t i = 0;
  double f = 0;
  std::string s; ///< module path, builtin or method name, string contents
  mlir::Type type; ///< dtype
  const FunctionDefAST *function = nullptr;
  std::vector<TValue> elements; ///< tuple elements; element 0 is `self` of a method

  static TValue of(mlir::Value v) {
    TValue t;
    t.kind = Kind::Value;
    t.value = v;
    return t;
  }
  static TValue ofInt(int64_t v) {
    TValue t;
    t.kind = Kind::Int;
    t.i = v;
    return t;
  }
  static TValue ofFloat(double v) {
    TValue t;
    t.kind = Kind::Float;
    t.f = v;
    return t;
  }
  static TValue ofBool(bool v) {
    TValue t;
    t.kind = Kind::Bool;
    t.i = v;
    return t;
  }
  static TValue ofDType(mlir::Type ty) {
    TValue t;
    t.kind = Kind::DType;
    t.type = ty;
    return t;
  }
  static TValue named(Kind kind, llvm::StringRef name) {
    TValue t;
    t.kind = kind;
    t.s = name.str();
    return t;
  }

  bool isValue() const { return kind == Kind::Value; }
  /// True for Int, Float and Bool: compile-time numbers.
  bool isConstNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  /// A short description for diagnostics ("a tile of f32", "a dtype"...).
  std::string describe() const;
};

/// Arguments of a call after evaluation.
struct CallArgs {
  std::vector<TValue> positional;
  std::vector<llvm::SMRange> positionalRanges;
  std::vector<std::pair<std::string, TValue>> keywords;
  std::vector<llvm::SMRange> keywordRanges;
};

/// Generates the tile IR of one kernel.
class Generator {
public:
  Generator(mlir::MLIRContext &context, const ModuleAST &module,
            const llvm::SourceMgr &srcMgr);

  mlir::OwningOpRef<mlir::ModuleOp> generate(const KernelConfig &config,
                                             KernelInfo &info);

  // Locations and diagnostics.
  mlir::Location loc(llvm::SMLoc l) const;
  mlir::InFlightDiagnostic error(llvm::SMLoc l) const;

  // Expressions (Generator.cpp).
  mlir::FailureOr<TValue> genExpr(const ExprAST &expr);
  mlir::FailureOr<TValue> genAttribute(const AttributeExprAST &expr);
  mlir::FailureOr<TValue> genCall(const CallExprAST &expr);
  mlir::FailureOr<TValue> callFunction(const FunctionDefAST &fn,
                                       CallArgs &args, llvm::SMLoc callLoc);

  // Operators and conversions (Operators.cpp).
  mlir::FailureOr<TValue> genBinary(BinaryOp op, TValue lhs, TValue rhs,
                                    llvm::SMLoc opLoc);
  mlir::FailureOr<TValue> genUnary(UnaryOp op, TValue operand,
                                   llvm::SMLoc opLoc);
  /// Materialises a run-time value; constexpr numbers become constants of
  /// their default type (i32/i64, f32, i1).
  mlir::FailureOr<mlir::Value> toValue(const TValue &v, llvm::SMLoc l);
  /// Materialises `v` as a value of element type `elem`, broadcast to the
  /// shape of `like` if `like` is a tile.
  mlir::FailureOr<mlir::Value> toValueOfType(const TValue &v, mlir::Type elem,
                                             mlir::Type like, llvm::SMLoc l);
  /// Converts `v` (scalar or tile) to element type `to`.
  mlir::Value cast(mlir::Value v, mlir::Type to, mlir::Location l);
  /// Splats a scalar to `shape`, or returns a tile of that shape unchanged.
  mlir::FailureOr<mlir::Value> broadcastTo(mlir::Value v,
                                           llvm::ArrayRef<int64_t> shape,
                                           llvm::SMLoc l);
  /// Truthiness of a compile-time value.
  mlir::FailureOr<bool> constTruth(const TValue &v, llvm::SMLoc l);

  // tl.* builtins (Builtins.cpp).
  mlir::FailureOr<TValue> callBuiltin(llvm::StringRef name, CallArgs &args,
                                      llvm::SMLoc callLoc);
  mlir::FailureOr<TValue> callMethod(const TValue &method, CallArgs &args,
                                     llvm::SMLoc callLoc);
  mlir::FailureOr<TValue> callPythonBuiltin(llvm::StringRef name,
                                            CallArgs &args,
                                            llvm::SMLoc callLoc);
  /// Maps a dtype name (`float32`, `fp32`, `int1`, `bfloat16`...) to its type.
  mlir::Type parseDType(llvm::StringRef name) const;

  // Statements (Statements.cpp).
  mlir::LogicalResult genBlock(const StmtList &body);
  mlir::LogicalResult genStmt(const StmtAST &stmt);
  mlir::LogicalResult assign(const ExprAST &target, const TValue &value);

  mlir::OpBuilder builder;
  const llvm::SourceMgr &srcMgr;
  /// Variables of the function being generated (helpers get their own).
  std::map<std::string, TValue> *scope = nullptr;
  /// Module-level names: imports, functions, global constexprs.
  std::map<std::string, TValue> globals;
  /// Value of a `return` statement of the helper being inlined.
  std::optional<TValue> returnValue;
  /// Helper call depth, to reject runaway recursion.
  unsigned callDepth = 0;

private:
  const ModuleAST &moduleAST;
  mlir::MLIRContext &context;
  mlir::StringAttr fileName;
};

} // namespace tilec

#endif // TILEC_LIB_MLIRGEN_GENERATOR_H
