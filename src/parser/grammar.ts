/**
 * The SQL grammar: the single source of truth for what storedb's SQL accepts.
 *
 * A grammar-only Chevrotain `CstParser`: rules build a concrete syntax tree
 * and nothing else; meaning is given by `to-ast.ts`. The railroad diagrams
 * (`grammar/diagrams.html`) and the CST types (`cst.generated.ts`) are
 * generated from this class by `npm run grammar`; never edit them by hand.
 *
 * There is exactly one instance (`grammar`), reused for every parse through
 * `grammar.input = tokens`: building a Chevrotain parser is expensive, running
 * one is cheap. Error recovery is off, so the first error ends the parse.
 *
 * Precedence, loosest first: OR, AND, NOT, then the predicates (comparison,
 * IS [NOT] NULL, [NOT] IN, BETWEEN, LIKE, GLOB), then `+ -`, then `* / %`, then
 * `||`, `->` and `->>`, then unary minus, then the postfix COLLATE (part of
 * `operand`, so `-x COLLATE nocase` is `-(x COLLATE nocase)`, as SQLite). A comparison takes arithmetic on both sides but not
 * another comparison, so `a = b = c` does not parse. The grammar is LL(1)
 * (`maxLookahead: 1`): one token always decides (CREATE and DROP are
 * consumed before the choice of TABLE or INDEX).
 *
 * Shaped for speed, following Chevrotain's performance guide, since every
 * rule call costs a CST node and bookkeeping: OR alternatives are built once
 * and cached (no fresh closures per call); clauses that occur once per
 * statement (WHERE, ORDER BY, LIMIT) are inline rather than rules of their
 * own; an operand's column reference and literal are inline alternatives of
 * `operand`; a run of prefix NOTs is a repetition inside `andExpression`, not
 * a recursion, and so is a run of minus signs before an operand; the
 * arithmetic operators of every precedence level share one flat rule
 * (`arithmetic`), which also takes those minus signs. Fewer rules on the way
 * from `expression` to `operand` also means less stack for each level of
 * parentheses: each rule call is several parser frames, and 256 levels
 * (CONTRACT §4) must fit a process whose parser is not yet optimized. Nodes carry no locations (`nodeLocationTracking: "none"`):
 * `to-ast.ts` derives spans from the tokens.
 */
import { CstParser, tokenMatcher, type IOrAlt, type TokenType } from "chevrotain";
import * as T from "../lexer/tokens.js";
import { errorMessages } from "./syntax-errors.js";

/** The words that may open a join clause: never an implicit alias. */
const JOIN_WORDS: ReadonlySet<TokenType> = new Set([T.Inner, T.Left, T.Right, T.Full, T.Outer, T.Cross, T.Natural]);

class SqlGrammar extends CstParser {
  /** Each OR's alternatives, built on its first call and reused by every later one. */
  private readonly alternatives: Record<string, IOrAlt<unknown>[]> = {};

  constructor() {
    super(T.allTokens as never, {
      recoveryEnabled: false,
      nodeLocationTracking: "none",
      maxLookahead: 1,
      errorMessageProvider: errorMessages,
      skipValidations: process.env["NODE_ENV"] === "production",
    });
    this.performSelfAnalysis();
  }

  readonly statement = this.RULE("statement", () => {
    this.OR(
      (this.alternatives.statement ??= [
        { ALT: () => this.SUBRULE(this.queryStatement) },
        { ALT: () => this.SUBRULE(this.createStatement) },
        { ALT: () => this.SUBRULE(this.dropStatement) },
        { ALT: () => this.SUBRULE(this.alterTableStatement) },
        { ALT: () => this.SUBRULE(this.explainStatement) },
      ]),
    );
    this.OPTION(() => this.CONSUME(T.Semicolon));
  });

  /** `CREATE` then `TABLE …` or `[UNIQUE] INDEX …`. */
  readonly createStatement = this.RULE("createStatement", () => {
    this.CONSUME(T.Create);
    this.OR(
      (this.alternatives.createStatement ??= [
        { ALT: () => this.SUBRULE(this.createTableStatement) },
        { ALT: () => this.SUBRULE(this.createIndexStatement) },
      ]),
    );
  });

  /** `DROP` then `TABLE …` or `INDEX …`. */
  readonly dropStatement = this.RULE("dropStatement", () => {
    this.CONSUME(T.Drop);
    this.OR(
      (this.alternatives.dropStatement ??= [
        { ALT: () => this.SUBRULE(this.dropTableStatement) },
        { ALT: () => this.SUBRULE(this.dropIndexStatement) },
      ]),
    );
  });

  readonly explainStatement = this.RULE("explainStatement", () => {
    this.CONSUME(T.Explain);
    this.SUBRULE(this.queryStatement);
  });

  /**
   * A select or a write, after an optional WITH clause whose tables the
   * statement reads (its select, subqueries, FROM). The WITH here is taken
   * before a select's own could be (MANY is greedy), so a select at the
   * top holds its WITH here; a second WITH clause, before a select or a
   * write alike, is refused in `to-ast.ts`.
   */
  readonly queryStatement = this.RULE("queryStatement", () => {
    this.MANY(() => this.SUBRULE(this.withClause));
    this.OR(
      (this.alternatives.queryStatement ??= [
        { ALT: () => this.SUBRULE(this.selectStatement) },
        { ALT: () => this.SUBRULE(this.insertStatement) },
        { ALT: () => this.SUBRULE(this.updateStatement) },
        { ALT: () => this.SUBRULE(this.deleteStatement) },
      ]),
    );
  });

  // ------------------------------------------------------------------ SELECT

  /**
   * Selects joined by UNION [ALL], INTERSECT or EXCEPT, left to right; ORDER
   * BY, LIMIT and OFFSET after the last one apply to the whole result.
   */
  readonly selectStatement = this.RULE("selectStatement", () => {
    this.OPTION6(() => this.SUBRULE(this.withClause));
    this.SUBRULE(this.selectCore);
    this.MANY(() => {
      this.SUBRULE(this.compoundOperator);
      this.SUBRULE2(this.selectCore);
    });
    this.OPTION3(() => {
      this.CONSUME(T.Order);
      this.CONSUME(T.By);
      this.SUBRULE(this.orderItem);
      this.MANY3(() => {
        this.CONSUME2(T.Comma);
        this.SUBRULE2(this.orderItem);
      });
    });
    this.OPTION4(() => {
      this.CONSUME(T.Limit);
      this.OR2((this.alternatives.limit ??= this.countAlternatives(1)));
      this.OPTION5(() => {
        this.CONSUME(T.Offset);
        this.OR3((this.alternatives.offset ??= this.countAlternatives(2)));
      });
    });
  });

  /** `WITH [RECURSIVE] table, …`: before a select (at any depth) or a write. */
  readonly withClause = this.RULE("withClause", () => {
    this.CONSUME(T.With);
    this.OPTION(() => this.CONSUME(T.Recursive));
    this.SUBRULE(this.commonTable);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.commonTable);
    });
  });

  /** `name [(column, …)] AS (SELECT …)` of a WITH clause. */
  readonly commonTable = this.RULE("commonTable", () => {
    this.CONSUME(T.Identifier);
    this.OPTION(() => {
      this.CONSUME2(T.LParen);
      this.CONSUME2(T.Identifier);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        this.CONSUME3(T.Identifier);
      });
      this.CONSUME2(T.RParen);
    });
    this.CONSUME(T.As);
    this.CONSUME(T.LParen);
    this.SUBRULE(this.selectStatement);
    this.CONSUME(T.RParen);
  });

  readonly compoundOperator = this.RULE("compoundOperator", () => {
    this.OR(
      (this.alternatives.compoundOperator ??= [
        {
          ALT: () => {
            this.CONSUME(T.Union);
            this.OPTION(() => this.CONSUME(T.All));
          },
        },
        { ALT: () => this.CONSUME(T.Intersect) },
        { ALT: () => this.CONSUME(T.Except) },
      ]),
    );
  });

  /** One SELECT of a statement: its list, sources, WHERE, GROUP BY and HAVING. */
  readonly selectCore = this.RULE("selectCore", () => {
    this.CONSUME(T.Select);
    // `ALL` is the default (every row), written out.
    this.OPTION6(() => this.OR2((this.alternatives.quantifier ??= [{ ALT: () => this.CONSUME(T.Distinct) }, { ALT: () => this.CONSUME(T.All) }])));
    this.OR(
      (this.alternatives.selectCore ??= [
        { ALT: () => this.CONSUME(T.Star) },
        {
          ALT: () => {
            this.SUBRULE(this.selectItem);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              this.SUBRULE2(this.selectItem);
            });
          },
        },
      ]),
    );
    this.OPTION(() => {
      this.CONSUME(T.From);
      this.SUBRULE(this.tableRef);
      this.MANY2(() => this.SUBRULE(this.joinClause));
    });
    this.OPTION2(() => {
      this.CONSUME(T.Where);
      this.SUBRULE(this.expression);
    });
    this.OPTION7(() => {
      this.CONSUME(T.Group);
      this.CONSUME2(T.By);
      this.SUBRULE2(this.expression);
      this.MANY4(() => {
        this.CONSUME3(T.Comma);
        this.SUBRULE3(this.expression);
      });
    });
    this.OPTION8(() => {
      this.CONSUME(T.Having);
      this.SUBRULE4(this.expression);
    });
    this.OPTION9({
      GATE: () => this.windowClauseAhead(),
      DEF: () => {
        this.CONSUME(T.Window);
        this.SUBRULE(this.windowDefinition);
        this.MANY5(() => {
          this.CONSUME4(T.Comma);
          this.SUBRULE2(this.windowDefinition);
        });
      },
    });
  });

  /** `name AS (window)` in a WINDOW clause. */
  readonly windowDefinition = this.RULE("windowDefinition", () => {
    this.CONSUME(T.Identifier);
    this.CONSUME(T.As);
    this.CONSUME(T.LParen);
    this.SUBRULE(this.windowSpec);
    this.CONSUME(T.RParen);
  });

  /** OVER starts a window clause when `(` or a name follows it (not RETURNING, which starts its clause after `INSERT … SELECT f(x) over`). */
  private overAhead(): boolean {
    const next = this.LA(2).tokenType;
    return this.LA(1).tokenType === T.Over && (next === T.LParen || (tokenMatcher(this.LA(2), T.Identifier) && next !== T.Returning));
  }

  /** FILTER starts an aggregate's filter clause when `(` follows it; otherwise it is a name (an alias). */
  private filterAhead(): boolean {
    return this.LA(1).tokenType === T.Filter && this.LA(2).tokenType === T.LParen;
  }

  /**
   * The two optional clauses after every function call's `)`, built once:
   * written inline, each call parsed made a new object and two closures per
   * clause (~1 µs per call in a statement of nine calls).
   */
  private readonly filterOption = { GATE: () => this.filterAhead(), DEF: () => void this.SUBRULE(this.filterClause) };
  private readonly overOption = { GATE: () => this.overAhead(), DEF: () => void this.SUBRULE(this.overClause) };

  /** WINDOW starts the clause when `name AS` follows it; otherwise it is a name (an alias). */
  private windowClauseAhead(): boolean {
    return this.LA(1).tokenType === T.Window && tokenMatcher(this.LA(2), T.Identifier) && this.LA(3).tokenType === T.As;
  }

  /** The words that open a part of a window, not a base window's name (they are soft keywords, so names too). */
  private windowNameAhead(): boolean {
    const next = this.LA(1).tokenType;
    return tokenMatcher(this.LA(1), T.Identifier) && next !== T.Partition && next !== T.Rows && next !== T.Range && next !== T.Groups;
  }

  /** `[base] [PARTITION BY …] [ORDER BY …] [frame]`, inside the parentheses of OVER or a WINDOW definition. */
  readonly windowSpec = this.RULE("windowSpec", () => {
    this.OPTION({ GATE: () => this.windowNameAhead(), DEF: () => this.CONSUME(T.Identifier) });
    this.OPTION2(() => {
      this.CONSUME(T.Partition);
      this.CONSUME(T.By);
      this.SUBRULE(this.expression);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        this.SUBRULE2(this.expression);
      });
    });
    this.OPTION3(() => {
      this.CONSUME(T.Order);
      this.CONSUME2(T.By);
      this.SUBRULE(this.orderItem);
      this.MANY2(() => {
        this.CONSUME2(T.Comma);
        this.SUBRULE2(this.orderItem);
      });
    });
    this.OPTION4(() => this.SUBRULE(this.frameSpec));
  });

  /** `ROWS | RANGE | GROUPS`, one bound (the start; the end is the current row) or `BETWEEN start AND end`, then `EXCLUDE …`. */
  readonly frameSpec = this.RULE("frameSpec", () => {
    this.OR(
      (this.alternatives.frameUnits ??= [{ ALT: () => this.CONSUME(T.Rows) }, { ALT: () => this.CONSUME(T.Range) }, { ALT: () => this.CONSUME(T.Groups) }]),
    );
    this.OR2(
      (this.alternatives.frameExtent ??= [
        {
          ALT: () => {
            this.CONSUME(T.Between);
            this.SUBRULE(this.frameBound);
            this.CONSUME(T.And);
            this.SUBRULE2(this.frameBound);
          },
        },
        { ALT: () => this.SUBRULE3(this.frameBound) },
      ]),
    );
    this.OPTION(() => {
      this.CONSUME(T.Exclude);
      this.OR3(
        (this.alternatives.frameExclude ??= [
          {
            ALT: () => {
              this.CONSUME(T.No);
              this.CONSUME(T.Others);
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.Current);
              this.CONSUME(T.Row);
            },
          },
          { ALT: () => this.CONSUME(T.Group) },
          { ALT: () => this.CONSUME(T.Ties) },
        ]),
      );
    });
  });

  /** `UNBOUNDED PRECEDING`, `n PRECEDING`, `CURRENT ROW`, `n FOLLOWING`, `UNBOUNDED FOLLOWING`; `n` a number or `?`. */
  readonly frameBound = this.RULE("frameBound", () => {
    this.OR(
      (this.alternatives.frameBound ??= [
        {
          ALT: () => {
            this.CONSUME(T.Current);
            this.CONSUME(T.Row);
          },
        },
        {
          ALT: () => {
            this.OR2(
              (this.alternatives.frameDistance ??= [
                { ALT: () => this.CONSUME(T.Unbounded) },
                { ALT: () => this.CONSUME(T.NumberLiteral) },
                { ALT: () => this.CONSUME(T.Param) },
              ]),
            );
            this.OR3((this.alternatives.frameSide ??= [{ ALT: () => this.CONSUME(T.Preceding) }, { ALT: () => this.CONSUME(T.Following) }]));
          },
        },
      ]),
    );
  });

  /** `FILTER (WHERE condition)` after an aggregate call (before its OVER, if any). */
  readonly filterClause = this.RULE("filterClause", () => {
    this.CONSUME(T.Filter);
    this.CONSUME(T.LParen);
    this.CONSUME(T.Where);
    this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
  });

  /** `OVER name` or `OVER (window)` after a call. */
  readonly overClause = this.RULE("overClause", () => {
    this.CONSUME(T.Over);
    this.OR(
      (this.alternatives.overClause ??= [
        { ALT: () => this.CONSUME(T.Identifier) },
        {
          ALT: () => {
            this.CONSUME(T.LParen);
            this.SUBRULE(this.windowSpec);
            this.CONSUME(T.RParen);
          },
        },
      ]),
    );
  });

  /** An expression, optionally named: `expr [AS] name`. */
  /** `name . *` next: the two tokens after the name tell it from a column `t.c` and every other expression. */
  private sourceStarAhead(): boolean {
    return tokenMatcher(this.LA(1), T.Identifier) && this.LA(2).tokenType === T.Dot && this.LA(3).tokenType === T.Star;
  }

  readonly selectItem = this.RULE("selectItem", () => {
    this.OR(
      (this.alternatives.selectItem ??= [
        {
          // The expression comes first: content assist (the expected tokens of a syntax error) follows the
          // first alternative that takes the tokens so far, and after `SELECT a` an expression goes on.
          GATE: () => !this.sourceStarAhead(),
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.SUBRULE(this.expression);
            this.OPTION({
              GATE: this.aliasAhead,
              DEF: () => {
                this.OPTION2(() => this.CONSUME(T.As));
                this.CONSUME(T.Identifier);
              },
            });
          },
        },
        {
          // `t.*`: every column of one source.
          GATE: () => this.sourceStarAhead(),
          ALT: () => {
            this.CONSUME2(T.Identifier);
            this.CONSUME(T.Dot);
            this.CONSUME(T.Star);
          },
        },
      ]),
    );
  });

  /** A table by name, a table function's call (`json_each(doc, path)`), or a derived table: a select in parentheses. */
  readonly tableRef = this.RULE("tableRef", () => {
    this.OR(
      (this.alternatives.tableRef ??= [
        {
          ALT: () => {
            this.CONSUME(T.Identifier);
            this.OPTION3(() => {
              this.CONSUME2(T.LParen);
              this.OPTION4(() => {
                this.SUBRULE(this.expression);
                this.MANY(() => {
                  this.CONSUME(T.Comma);
                  this.SUBRULE2(this.expression);
                });
              });
              this.CONSUME2(T.RParen);
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.LParen);
            this.SUBRULE(this.selectStatement);
            this.CONSUME(T.RParen);
          },
        },
      ]),
    );
    this.OPTION({
      GATE: this.aliasAhead,
      DEF: () => {
        this.OPTION2(() => this.CONSUME(T.As));
        this.CONSUME2(T.Identifier);
      },
    });
  });

  /**
   * An alias may follow, unless the next word is RETURNING, a join word, or
   * WINDOW followed by `name AS`: soft keywords, so also names, but after
   * `INSERT … SELECT … FROM t` and after a select's sources they start
   * their clauses (`AS returning`, `AS right` still name one). So `FROM t
   * RIGHT JOIN s` never reads RIGHT as t's alias, as SQLite's grammar does
   * not.
   */
  private readonly aliasAhead = (): boolean => this.LA(1).tokenType !== T.Returning && !JOIN_WORDS.has(this.LA(1).tokenType) && !this.windowClauseAhead();

  /**
   * A source after the first: `, t` (a cross join), or `[NATURAL] [INNER |
   * CROSS | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN t [ON expr |
   * USING (col, …)]`. Which words go together with which condition is
   * checked when the join is lowered, where the message can say so.
   */
  readonly joinClause = this.RULE("joinClause", () => {
    this.OR(
      (this.alternatives.joinClause ??= [
        {
          ALT: () => {
            this.CONSUME(T.Comma);
            this.SUBRULE(this.tableRef);
          },
        },
        {
          ALT: () => {
            this.OPTION(() => this.CONSUME(T.Natural));
            this.OPTION2(() => this.OR2((this.alternatives.joinType ??= this.joinTypes())));
            this.CONSUME(T.Join);
            this.SUBRULE2(this.tableRef);
            this.OPTION3(() => this.OR3((this.alternatives.joinCondition ??= this.joinConditions())));
          },
        },
      ]),
    );
  });

  private joinTypes(): IOrAlt<unknown>[] {
    return [
      { ALT: () => this.CONSUME(T.Inner) },
      { ALT: () => this.CONSUME(T.Cross) },
      {
        ALT: () => {
          this.CONSUME(T.Left);
          this.OPTION4(() => this.CONSUME(T.Outer));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Right);
          this.OPTION5(() => this.CONSUME2(T.Outer));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Full);
          this.OPTION6(() => this.CONSUME3(T.Outer));
        },
      },
    ];
  }

  private joinConditions(): IOrAlt<unknown>[] {
    return [
      {
        ALT: () => {
          this.CONSUME(T.On);
          this.SUBRULE(this.expression);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Using);
          this.CONSUME(T.LParen);
          this.CONSUME(T.Identifier);
          this.MANY(() => {
            this.CONSUME2(T.Comma);
            this.CONSUME2(T.Identifier);
          });
          this.CONSUME(T.RParen);
        },
      },
    ];
  }

  readonly orderItem = this.RULE("orderItem", () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => {
      this.OR((this.alternatives.orderItem ??= [{ ALT: () => this.CONSUME(T.Asc) }, { ALT: () => this.CONSUME(T.Desc) }]));
    });
    this.OPTION2(() => {
      this.CONSUME(T.Nulls);
      this.OR2((this.alternatives.nulls ??= [{ ALT: () => this.CONSUME(T.First) }, { ALT: () => this.CONSUME(T.Last) }]));
    });
  });

  /**
   * LIMIT and OFFSET take a whole number, a negative one (SQLite's `LIMIT -1`:
   * no limit) or `?`; `index` keeps the two clauses' tokens apart for Chevrotain.
   */
  private countAlternatives(index: 1 | 2): IOrAlt<unknown>[] {
    return index === 1
      ? [
          { ALT: () => this.CONSUME(T.NumberLiteral) },
          {
            ALT: () => {
              this.CONSUME(T.Minus);
              this.CONSUME3(T.NumberLiteral);
            },
          },
          { ALT: () => this.CONSUME(T.Param) },
        ]
      : [
          { ALT: () => this.CONSUME2(T.NumberLiteral) },
          {
            ALT: () => {
              this.CONSUME2(T.Minus);
              this.CONSUME4(T.NumberLiteral);
            },
          },
          { ALT: () => this.CONSUME2(T.Param) },
        ];
  }

  // ------------------------------------------------------- INSERT, UPDATE, DELETE

  /** `INSERT [OR IGNORE | REPLACE | ABORT | FAIL | ROLLBACK]`, or `REPLACE` (SQLite's short form of INSERT OR REPLACE). */
  readonly insertStatement = this.RULE("insertStatement", () => {
    this.OR2(
      (this.alternatives.insertVerb ??= [
        {
          ALT: () => {
            this.CONSUME(T.Insert);
            this.OPTION(() => {
              this.CONSUME(T.Or);
              this.OR3(
                (this.alternatives.conflictResolution ??= [
                  { ALT: () => this.CONSUME(T.Ignore) },
                  { ALT: () => this.CONSUME2(T.Replace) },
                  { ALT: () => this.CONSUME(T.Abort) },
                  { ALT: () => this.CONSUME(T.Fail) },
                  { ALT: () => this.CONSUME(T.Rollback) },
                ]),
              );
            });
          },
        },
        { ALT: () => this.CONSUME(T.Replace) },
      ]),
    );
    this.CONSUME(T.Into);
    this.CONSUME(T.Identifier);
    // Without a list, the values are the table's columns in order (as SQLite).
    this.OPTION4(() => this.SUBRULE(this.nameList));
    this.OR(
      (this.alternatives.insertStatement ??= [
        {
          ALT: () => {
            this.CONSUME(T.Values);
            this.SUBRULE(this.valueRow);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              this.SUBRULE2(this.valueRow);
            });
            this.OPTION2(() => this.SUBRULE(this.onConflictClause));
          },
        },
        {
          ALT: () => {
            this.SUBRULE(this.selectStatement);
            this.OPTION5(() => this.SUBRULE2(this.onConflictClause));
          },
        },
        {
          // One row of defaults. As in SQLite no ON CONFLICT clause follows (INSERT OR IGNORE and OR REPLACE still act).
          ALT: () => {
            this.CONSUME(T.Default);
            this.CONSUME2(T.Values);
          },
        },
      ]),
    );
    this.OPTION3(() => this.SUBRULE(this.returningClause));
  });

  /** `ON CONFLICT [(cols)] DO NOTHING | DO UPDATE SET c = expr, ... [WHERE expr]`: `excluded.c` names the proposed row. */
  readonly onConflictClause = this.RULE("onConflictClause", () => {
    this.CONSUME(T.On);
    this.CONSUME(T.Conflict);
    this.OPTION(() => this.SUBRULE(this.keyColumnList));
    this.CONSUME(T.Do);
    this.OR(
      (this.alternatives.onConflictClause ??= [
        { ALT: () => this.CONSUME(T.Nothing) },
        {
          ALT: () => {
            this.CONSUME(T.Update);
            this.CONSUME(T.SetKeyword);
            this.SUBRULE(this.assignment);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              this.SUBRULE2(this.assignment);
            });
            this.OPTION2(() => {
              this.CONSUME(T.Where);
              this.SUBRULE(this.expression);
            });
          },
        },
      ]),
    );
  });

  /** `RETURNING *` or a list of select items, after an INSERT, UPDATE or DELETE. */
  readonly returningClause = this.RULE("returningClause", () => {
    this.CONSUME(T.Returning);
    this.OR(
      (this.alternatives.returningClause ??= [
        { ALT: () => this.CONSUME(T.Star) },
        {
          ALT: () => {
            this.SUBRULE(this.selectItem);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              this.SUBRULE2(this.selectItem);
            });
          },
        },
      ]),
    );
  });

  /** A VALUES tuple: each item a literal, `?`, or any expression with no row to read (`lower(?)`, a scalar subquery). */
  readonly valueRow = this.RULE("valueRow", () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.expression);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.expression);
    });
    this.CONSUME(T.RParen);
  });

  /**
   * `UPDATE t [[AS] alias] SET … [FROM sources] [WHERE …] [RETURNING …]`:
   * FROM's sources (a table or a derived table, then joins as a select's)
   * are joined with the table, as in SQLite 3.33+.
   */
  readonly updateStatement = this.RULE("updateStatement", () => {
    this.CONSUME(T.Update);
    this.CONSUME(T.Identifier);
    this.OPTION3(() => {
      this.OPTION4(() => this.CONSUME(T.As));
      this.CONSUME2(T.Identifier);
    });
    this.CONSUME(T.SetKeyword);
    this.SUBRULE(this.assignment);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.assignment);
    });
    this.OPTION5(() => {
      this.CONSUME(T.From);
      this.SUBRULE(this.tableRef);
      this.MANY2(() => this.SUBRULE(this.joinClause));
    });
    this.OPTION(() => {
      this.CONSUME(T.Where);
      this.SUBRULE(this.expression);
    });
    this.OPTION2(() => this.SUBRULE(this.returningClause));
  });

  /** `column = expression`, or `(a, b) = row value`: the expression reads the row before the update. */
  readonly assignment = this.RULE("assignment", () => {
    this.OR(
      (this.alternatives.assignment ??= [
        { ALT: () => this.CONSUME(T.Identifier) },
        { ALT: () => this.SUBRULE(this.nameList) },
      ]),
    );
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression);
  });

  /**
   * `DELETE FROM t [[AS] alias] [WHERE …] [RETURNING …]`: the alias as an
   * update's, which WHERE names the table by (RETURNING by its name, as in
   * SQLite); never RETURNING itself, as after a select's table.
   */
  readonly deleteStatement = this.RULE("deleteStatement", () => {
    this.CONSUME(T.Delete);
    this.CONSUME(T.From);
    this.CONSUME(T.Identifier);
    this.OPTION3({
      GATE: this.aliasAhead,
      DEF: () => {
        this.OPTION4(() => this.CONSUME(T.As));
        this.CONSUME2(T.Identifier);
      },
    });
    this.OPTION(() => {
      this.CONSUME(T.Where);
      this.SUBRULE(this.expression);
    });
    this.OPTION2(() => this.SUBRULE(this.returningClause));
  });

  // ------------------------------------------------------------------ DDL

  /** After CREATE. */
  readonly createTableStatement = this.RULE("createTableStatement", () => {
    this.CONSUME(T.Table);
    this.OPTION(() => {
      this.CONSUME(T.If);
      this.CONSUME(T.Not);
      this.CONSUME(T.Exists);
    });
    this.CONSUME(T.Identifier);
    this.OR(
      (this.alternatives.createTableBody ??= [
        {
          ALT: () => {
            this.CONSUME(T.LParen);
            this.SUBRULE(this.tableElement);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              this.SUBRULE2(this.tableElement);
            });
            this.CONSUME(T.RParen);
          },
        },
        // CREATE TABLE … AS SELECT: the columns are the select's result columns.
        {
          ALT: () => {
            this.CONSUME(T.As);
            this.SUBRULE(this.selectStatement);
          },
        },
      ]),
    );
  });

  readonly tableElement = this.RULE("tableElement", () => {
    this.OR(
      (this.alternatives.tableElement ??= [
        { ALT: () => this.SUBRULE(this.columnDefinition) },
        { ALT: () => this.SUBRULE(this.tableConstraint) },
      ]),
    );
  });

  readonly columnDefinition = this.RULE("columnDefinition", () => {
    this.CONSUME(T.Identifier);
    this.SUBRULE(this.typeName);
    this.MANY(() => this.SUBRULE(this.columnConstraint));
  });

  readonly typeName = this.RULE("typeName", () => {
    this.CONSUME(T.Identifier);
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      this.CONSUME(T.NumberLiteral);
      this.OPTION2(() => {
        this.CONSUME(T.Comma);
        this.CONSUME2(T.NumberLiteral);
      });
      this.CONSUME(T.RParen);
    });
  });

  readonly columnConstraint = this.RULE("columnConstraint", () => {
    this.OR(
      (this.alternatives.columnConstraint ??= [
        {
          ALT: () => {
            this.CONSUME(T.Primary);
            this.CONSUME(T.Key);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Not);
            this.CONSUME(T.Null);
          },
        },
        { ALT: () => this.CONSUME(T.Unique) },
        {
          ALT: () => {
            this.CONSUME(T.Default);
            this.OR2(
              (this.alternatives.columnDefault ??= [
                { ALT: () => this.SUBRULE(this.literal) },
                // CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME are names to the lexer; the AST builder takes only those.
                { ALT: () => this.CONSUME(T.Identifier) },
                {
                  ALT: () => {
                    this.CONSUME(T.LParen);
                    this.SUBRULE(this.expression);
                    this.CONSUME(T.RParen);
                  },
                },
              ]),
            );
          },
        },
        { ALT: () => this.SUBRULE(this.referencesClause) },
        {
          // Parsed so the refusal can say why (`lower-sql.ts`): storedb's columns compare by BINARY only.
          ALT: () => {
            this.CONSUME(T.Collate);
            this.CONSUME2(T.Identifier);
          },
        },
      ]),
    );
  });

  readonly tableConstraint = this.RULE("tableConstraint", () => {
    this.OPTION(() => {
      this.CONSUME(T.Constraint);
      this.CONSUME(T.Identifier);
    });
    this.OR(
      (this.alternatives.tableConstraint ??= [
        {
          ALT: () => {
            this.CONSUME(T.Primary);
            this.CONSUME(T.Key);
            this.SUBRULE(this.keyColumnList);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Unique);
            this.SUBRULE2(this.keyColumnList);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Foreign);
            this.CONSUME2(T.Key);
            this.SUBRULE(this.nameList);
            this.SUBRULE(this.referencesClause);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Check);
            this.CONSUME(T.LParen);
            this.SUBRULE(this.expression);
            this.CONSUME(T.RParen);
          },
        },
      ]),
    );
  });

  readonly referencesClause = this.RULE("referencesClause", () => {
    this.CONSUME(T.References);
    this.CONSUME(T.Identifier);
    this.SUBRULE(this.nameList);
    this.OPTION(() => {
      this.CONSUME(T.On);
      this.CONSUME(T.Delete);
      this.OR(
        (this.alternatives.referencesClause ??= [{ ALT: () => this.CONSUME(T.Cascade) }, { ALT: () => this.CONSUME(T.Restrict) }]),
      );
    });
  });

  /** `(a, b, c)`: column names in parentheses. */
  readonly nameList = this.RULE("nameList", () => {
    this.CONSUME(T.LParen);
    this.CONSUME(T.Identifier);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.CONSUME2(T.Identifier);
    });
    this.CONSUME(T.RParen);
  });

  /** `(a, b COLLATE name, …)`: a key's or index's columns, each with a COLLATE allowed (lowering takes BINARY only). */
  readonly keyColumnList = this.RULE("keyColumnList", () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.keyColumn);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.keyColumn);
    });
    this.CONSUME(T.RParen);
  });

  readonly keyColumn = this.RULE("keyColumn", () => {
    this.CONSUME(T.Identifier);
    this.OPTION(() => {
      this.CONSUME(T.Collate);
      this.CONSUME2(T.Identifier);
    });
  });

  /** After DROP. */
  readonly dropTableStatement = this.RULE("dropTableStatement", () => {
    this.CONSUME(T.Table);
    this.OPTION(() => {
      this.CONSUME(T.If);
      this.CONSUME(T.Exists);
    });
    this.CONSUME(T.Identifier);
  });

  /** `[UNIQUE] INDEX [IF NOT EXISTS] name ON table (columns)`, after CREATE. */
  readonly createIndexStatement = this.RULE("createIndexStatement", () => {
    this.OPTION(() => this.CONSUME(T.Unique));
    this.CONSUME(T.Index);
    this.OPTION2(() => {
      this.CONSUME(T.If);
      this.CONSUME(T.Not);
      this.CONSUME(T.Exists);
    });
    this.CONSUME(T.Identifier);
    this.CONSUME(T.On);
    this.CONSUME2(T.Identifier);
    this.SUBRULE(this.keyColumnList);
  });

  /** `INDEX [IF EXISTS] name`, after DROP. */
  readonly dropIndexStatement = this.RULE("dropIndexStatement", () => {
    this.CONSUME(T.Index);
    this.OPTION(() => {
      this.CONSUME(T.If);
      this.CONSUME(T.Exists);
    });
    this.CONSUME(T.Identifier);
  });

  /** `ALTER TABLE t ADD [COLUMN] c type [NOT NULL] [DEFAULT x] | DROP [COLUMN] c | RENAME [COLUMN] a TO b | RENAME TO u`. */
  readonly alterTableStatement = this.RULE("alterTableStatement", () => {
    this.CONSUME(T.Alter);
    this.CONSUME(T.Table);
    this.CONSUME(T.Identifier);
    this.OR(
      (this.alternatives.alterTableStatement ??= [
        {
          ALT: () => {
            this.CONSUME(T.Add);
            this.OPTION(() => this.CONSUME(T.Column));
            this.SUBRULE(this.columnDefinition);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Drop);
            this.OPTION2(() => this.CONSUME2(T.Column));
            this.CONSUME2(T.Identifier);
          },
        },
        { ALT: () => this.SUBRULE(this.renameAction) },
      ]),
    );
  });

  /** `RENAME TO u` (the table) or `RENAME [COLUMN] a TO b`. */
  readonly renameAction = this.RULE("renameAction", () => {
    this.CONSUME(T.Rename);
    this.OR(
      (this.alternatives.renameAction ??= [
        {
          ALT: () => {
            this.CONSUME(T.To);
            this.CONSUME(T.Identifier);
          },
        },
        {
          ALT: () => {
            this.OPTION(() => this.CONSUME(T.Column));
            this.CONSUME2(T.Identifier);
            this.CONSUME2(T.To);
            this.CONSUME3(T.Identifier);
          },
        },
      ]),
    );
  });

  // ------------------------------------------------------------------ expressions

  readonly expression = this.RULE("expression", () => {
    this.SUBRULE(this.andExpression);
    this.MANY(() => {
      this.CONSUME(T.Or);
      this.SUBRULE2(this.andExpression);
    });
  });

  /** Predicates joined by AND, each after its own run of prefix NOTs (`NOT NOT a` nests two deep). */
  readonly andExpression = this.RULE("andExpression", () => {
    this.MANY(() => this.CONSUME(T.Not));
    this.SUBRULE(this.predicate);
    this.MANY2(() => {
      this.CONSUME(T.And);
      this.MANY3(() => this.CONSUME2(T.Not));
      this.SUBRULE2(this.predicate);
    });
  });

  /**
   * An operand, optionally compared with a second one, tested with IS [NOT]
   * NULL, or matched with [NOT] IN, BETWEEN or LIKE. Each operand is an
   * `arithmetic` chain, so `a + 1 < b * 2` needs no parentheses.
   */
  readonly predicate = this.RULE("predicate", () => {
    this.SUBRULE(this.arithmetic);
    this.OPTION(() => {
      this.OR(
        (this.alternatives.predicate ??= [
          {
            ALT: () => {
              this.CONSUME(T.ComparisonOperator);
              this.SUBRULE2(this.arithmetic);
            },
          },
          // SQLite's postfix NULL tests `x ISNULL` and `x NOTNULL` (`x NOT NULL` is among the negatable ones).
          { ALT: () => this.CONSUME(T.Isnull) },
          { ALT: () => this.CONSUME(T.Notnull) },
          {
            // `IS [NOT] NULL`, and SQLite's null-safe `IS [NOT] x` and `IS [NOT] DISTINCT FROM x` (NULL is an operand).
            ALT: () => {
              this.CONSUME(T.Is);
              this.OPTION2(() => this.CONSUME(T.Not));
              this.OPTION5(() => {
                this.CONSUME(T.Distinct);
                this.CONSUME(T.From);
              });
              this.SUBRULE7(this.arithmetic);
            },
          },
          {
            ALT: () => {
              this.OPTION3(() => this.CONSUME2(T.Not));
              this.OR2(
                (this.alternatives.negatable ??= [
                  // `x NOT NULL` (a NULL with no NOT before it is refused when the tree is built).
                  { ALT: () => this.CONSUME(T.Null) },
                  {
                    // `IN (a, b)` or `IN (SELECT …)`.
                    ALT: () => {
                      this.CONSUME(T.In);
                      this.CONSUME(T.LParen);
                      this.OR3(
                        (this.alternatives.inList ??= [
                          { ALT: () => this.SUBRULE(this.selectStatement) },
                          {
                            ALT: () => {
                              this.SUBRULE(this.expression);
                              this.MANY(() => {
                                this.CONSUME(T.Comma);
                                this.SUBRULE2(this.expression);
                              });
                            },
                          },
                        ]),
                      );
                      this.CONSUME(T.RParen);
                    },
                  },
                  {
                    ALT: () => {
                      this.CONSUME(T.Between);
                      this.SUBRULE3(this.arithmetic);
                      this.CONSUME(T.And);
                      this.SUBRULE4(this.arithmetic);
                    },
                  },
                  {
                    ALT: () => {
                      this.CONSUME(T.Like);
                      this.SUBRULE5(this.arithmetic);
                      this.OPTION4(() => {
                        this.CONSUME(T.Escape);
                        this.SUBRULE6(this.arithmetic);
                      });
                    },
                  },
                  {
                    ALT: () => {
                      this.CONSUME(T.Glob);
                      this.SUBRULE8(this.arithmetic);
                    },
                  },
                ]),
              );
            },
          },
        ]),
      );
    });
  });

  /**
   * Operands joined by arithmetic operators (`+ - * / % || -> ->>`), flat: the CST
   * keeps the chain in text order and `to-ast.ts` nests it by precedence
   * (`||`, `->`, `->>`, then `* / %`, then `+ -`, each left to right, as SQLite does). One
   * rule for every level keeps a plain column reference from paying a rule
   * call per precedence level. Each operand may follow a run of prefix minus
   * signs (`-5` is a negative literal; `-x` negates): the CST keeps them in
   * one list, which `to-ast.ts` splits between the operands by position.
   */
  readonly arithmetic = this.RULE("arithmetic", () => {
    this.MANY(() => this.CONSUME(T.Minus));
    this.SUBRULE(this.operand);
    this.MANY2(() => {
      this.CONSUME(T.ArithmeticOperator);
      this.MANY3(() => this.CONSUME2(T.Minus));
      this.SUBRULE2(this.operand);
    });
  });

  /**
   * `?`, a literal, a column (`c` or `t.c`), a function call (`f(a, b)`), a
   * parenthesized expression or subquery, EXISTS, CASE or CAST; then any
   * number of `COLLATE name` (inline here, not a rule: no frames per level).
   */
  readonly operand = this.RULE("operand", () => {
    this.OR(
      (this.alternatives.operand ??= [
        { ALT: () => this.CONSUME(T.Param) },
        ...this.literalAlternatives(false),
        {
          ALT: () => {
            this.CONSUME(T.Identifier);
            this.OPTION(() => {
              this.OR2(
                (this.alternatives.reference ??= [
                  {
                    ALT: () => {
                      this.CONSUME(T.Dot);
                      this.CONSUME2(T.Identifier);
                    },
                  },
                  {
                    // A call: `f(a, b)`, `f()`, and for aggregates `count(*)`, `sum(DISTINCT a)`.
                    ALT: () => {
                      this.CONSUME(T.LParen);
                      this.OPTION2(() => {
                        this.OR3(
                          (this.alternatives.arguments ??= [
                            { ALT: () => this.CONSUME(T.Star) },
                            {
                              ALT: () => {
                                this.OPTION3(() => this.CONSUME(T.Distinct));
                                this.SUBRULE(this.expression);
                                this.MANY(() => {
                                  this.CONSUME(T.Comma);
                                  this.SUBRULE2(this.expression);
                                });
                              },
                            },
                          ]),
                        );
                      });
                      this.CONSUME(T.RParen);
                      // An aggregate's `FILTER (WHERE …)`; otherwise `filter` is the call's alias (`SELECT count(*) filter FROM t`).
                      this.OPTION5(this.filterOption);
                      // A window function: `f(…) OVER (…)` or `OVER name`; otherwise `over` is the call's alias (`SELECT count(*) over FROM t`).
                      this.OPTION4(this.overOption);
                    },
                  },
                ]),
              );
            });
          },
        },
        {
          // A scalar subquery: the token after `(` tells it from a parenthesized expression, which
          // takes every other `(` (so `()` is an expression missing at `)`).
          GATE: () => this.LA(2).tokenType === T.Select || this.LA(2).tokenType === T.With,
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.CONSUME2(T.LParen);
            this.SUBRULE(this.selectStatement);
            this.CONSUME2(T.RParen);
          },
        },
        {
          // A parenthesized expression, straight into `expression` with no alternation of its own:
          // each level of parentheses is a run of parser frames, and 256 levels must fit a cold
          // process's stack (CONTRACT §4; V8's default is under 1 MB). With commas, a row value `(a, b)`.
          ALT: () => {
            this.CONSUME5(T.LParen);
            this.SUBRULE3(this.expression);
            this.MANY3(() => {
              this.CONSUME2(T.Comma);
              this.SUBRULE5(this.expression);
            });
            this.CONSUME5(T.RParen);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Exists);
            this.CONSUME4(T.LParen);
            this.SUBRULE2(this.selectStatement);
            this.CONSUME4(T.RParen);
          },
        },
        { ALT: () => this.SUBRULE(this.caseExpression) },
        {
          ALT: () => {
            this.CONSUME(T.Cast);
            this.CONSUME3(T.LParen);
            this.SUBRULE4(this.expression);
            this.CONSUME(T.As);
            this.SUBRULE(this.typeName);
            this.CONSUME3(T.RParen);
          },
        },
      ]),
    );
    this.MANY2(() => {
      this.CONSUME(T.Collate);
      this.CONSUME9(T.Identifier, { LABEL: "collation" });
    });
  });

  /** `CASE [operand] WHEN ... THEN ... [ELSE ...] END`. */
  readonly caseExpression = this.RULE("caseExpression", () => {
    this.CONSUME(T.Case);
    this.OPTION(() => this.SUBRULE(this.expression));
    this.AT_LEAST_ONE(() => {
      this.CONSUME(T.When);
      this.SUBRULE2(this.expression);
      this.CONSUME(T.Then);
      this.SUBRULE3(this.expression);
    });
    this.OPTION2(() => {
      this.CONSUME(T.Else);
      this.SUBRULE4(this.expression);
    });
    this.CONSUME(T.End);
  });

  /** A literal on its own (DEFAULT). */
  readonly literal = this.RULE("literal", () => {
    this.OR((this.alternatives.literal ??= this.literalAlternatives(true)));
  });

  /**
   * The alternatives of a literal: a string, a number, TRUE, FALSE or NULL,
   * and with `signed`, `-` and a number. Shared by `literal` and `value`
   * (signed) and `operand` (unsigned: there a minus sign is `arithmetic`'s),
   * which inline them.
   */
  private literalAlternatives(signed: boolean): IOrAlt<unknown>[] {
    const negative: IOrAlt<unknown>[] = signed
      ? [
          {
            ALT: () => {
              this.CONSUME(T.Minus);
              this.CONSUME2(T.NumberLiteral);
            },
          },
        ]
      : [];
    return [
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.NumberLiteral) },
      ...negative,
      { ALT: () => this.CONSUME(T.True) },
      { ALT: () => this.CONSUME(T.False) },
      { ALT: () => this.CONSUME(T.Null) },
    ];
  }
}

/** The one parser instance. Set `grammar.input`, call `grammar.statement()`, read `grammar.errors`. */
export const grammar = new SqlGrammar();
