//===- TileOps.h - Operations of the tile dialect -----------------*- C++
//-*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_H
#define TILEC_DIALECT_TILE_IR_TILEOPS_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_H
