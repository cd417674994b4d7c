'use strict';
// `value |> fn`, the F#-style pipeline proposal (`x |> f` is `f(x)`), as an acorn plugin: a binary operator
// below `||` and `??`, left-associative, parsed into a BinaryExpression whose operator is "|>".
module.exports = function pipeline(Parser) {
  const { TokenType } = Parser.acorn;
  // TokenType keeps `conf.binop || null`, so precedence 0 would mean "not a binary operator"; `||` is 1.
  const pipelineOp = new TokenType('|>', { beforeExpr: true, binop: 0.5 });
  return class extends Parser {
    readToken_pipe_amp(code) {
      if (code === 124 && this.input.charCodeAt(this.pos + 1) === 62) return this.finishOp(pipelineOp, 2);
      return super.readToken_pipe_amp(code);
    }
  };
};
