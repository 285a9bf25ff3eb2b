// Fusion adaptation of the AST pieces that X3 fills by plain attribute
// propagation (positions are set by the annotation handler, not parsed).
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "parser/ast.hpp"
#include "parser/x3/raw.hpp"

BOOST_FUSION_ADAPT_STRUCT(ptxcheck::ast::Version, major, minor)
BOOST_FUSION_ADAPT_STRUCT(ptxcheck::raw::DeclItem, word, num)
BOOST_FUSION_ADAPT_STRUCT(ptxcheck::ast::FileDir, index, path, timestamp, size)
BOOST_FUSION_ADAPT_STRUCT(ptxcheck::ast::AliasDir, alias, aliasee)
