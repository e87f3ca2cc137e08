/**
 * The SQL token vocabulary, as Chevrotain token types in one ordered list.
 *
 * Order matters: Chevrotain tries patterns in list order among those that can
 * start with the current character, so keywords precede the bare identifier
 * (each keyword has `longer_alt: BareIdentifier`, so `selected` lexes as an
 * identifier and not as SELECT + `ed`), and two-character operators precede
 * their one-character prefixes. Keywords match case-insensitively.
 *
 * `Identifier` is an abstract category: the parser consumes it and accepts a
 * bare word, a `"quoted"` name, or one of the few soft keywords that cannot
 * be mistaken for a name wherever one may stand (KEY, ASC, DESC, CASCADE,
 * RESTRICT), so a column may be called `key` without quoting. Every token
 * has a `label`: the name reported in `expected` lists and shown in messages
 * and syntax diagrams.
 */
import { createToken, Lexer, type TokenType } from "chevrotain";

export const Identifier = createToken({ name: "Identifier", label: "Identifier", pattern: Lexer.NA });

export const BareIdentifier = createToken({
  name: "BareIdentifier",
  label: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  start_chars_hint: [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"],
  categories: [Identifier],
});

export const QuotedIdentifier = createToken({
  name: "QuotedIdentifier",
  label: "Identifier",
  pattern: /"(?:[^"]|"")+"/,
  start_chars_hint: ['"'],
  categories: [Identifier],
});

/**
 * Keywords that may also serve as names: nowhere in the grammar can they be
 * mistaken for one (an implicit alias is never RETURNING nor a join word: see
 * the grammar's `aliasAhead`). The join words (INNER, LEFT, RIGHT, FULL,
 * OUTER, CROSS, NATURAL) are names as in SQLite, so `right` may name a
 * column, and `AS right` an alias; USING stays reserved, as in SQLite.
 */
const SOFT: readonly string[] = ["KEY", "ASC", "DESC", "CASCADE", "RESTRICT", "RETURNING", "CONFLICT", "DO", "NOTHING", "IGNORE", "INDEX", "ALTER", "ADD", "RENAME", "RECURSIVE", "NULLS", "FIRST", "LAST",
  "OVER", "FILTER", "PARTITION", "WINDOW", "ROWS", "RANGE", "GROUPS", "UNBOUNDED", "PRECEDING", "FOLLOWING", "CURRENT", "ROW", "EXCLUDE", "NO", "OTHERS", "TIES",
  "REPLACE", "ABORT", "FAIL", "ROLLBACK", "ISNULL", "NOTNULL",
  "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL"];

function keyword(word: string): TokenType {
  const name = word.charAt(0) + word.slice(1).toLowerCase();
  return createToken({
    name,
    label: word,
    pattern: new RegExp(word, "i"),
    start_chars_hint: [word.charAt(0), word.charAt(0).toLowerCase()],
    longer_alt: BareIdentifier,
    ...(SOFT.includes(word) ? { categories: [Identifier] } : {}),
  });
}

export const Select = keyword("SELECT");
export const From = keyword("FROM");
export const Where = keyword("WHERE");
export const And = keyword("AND");
export const Or = keyword("OR");
export const Not = keyword("NOT");
export const Is = keyword("IS");
export const Null = keyword("NULL");
export const True = keyword("TRUE");
export const False = keyword("FALSE");
export const As = keyword("AS");
export const Join = keyword("JOIN");
export const Inner = keyword("INNER");
export const Left = keyword("LEFT");
export const Right = keyword("RIGHT");
export const Full = keyword("FULL");
export const Outer = keyword("OUTER");
export const Cross = keyword("CROSS");
export const Natural = keyword("NATURAL");
export const Using = keyword("USING");
export const On = keyword("ON");
export const Order = keyword("ORDER");
export const By = keyword("BY");
export const Asc = keyword("ASC");
export const Desc = keyword("DESC");
export const Limit = keyword("LIMIT");
export const Offset = keyword("OFFSET");
export const Insert = keyword("INSERT");
export const Into = keyword("INTO");
export const Values = keyword("VALUES");
export const Update = keyword("UPDATE");
/** Not `Set`: that would shadow the global in this module. */
export const SetKeyword = keyword("SET");
export const Delete = keyword("DELETE");
export const Create = keyword("CREATE");
export const Table = keyword("TABLE");
export const If = keyword("IF");
export const Exists = keyword("EXISTS");
export const Primary = keyword("PRIMARY");
export const Key = keyword("KEY");
export const Unique = keyword("UNIQUE");
export const Default = keyword("DEFAULT");
export const References = keyword("REFERENCES");
export const Cascade = keyword("CASCADE");
export const Restrict = keyword("RESTRICT");
export const Foreign = keyword("FOREIGN");
export const Check = keyword("CHECK");
export const Constraint = keyword("CONSTRAINT");
export const Drop = keyword("DROP");
export const Explain = keyword("EXPLAIN");
export const Case = keyword("CASE");
export const When = keyword("WHEN");
export const Then = keyword("THEN");
export const Else = keyword("ELSE");
export const End = keyword("END");
export const Cast = keyword("CAST");
export const In = keyword("IN");
export const Between = keyword("BETWEEN");
export const Like = keyword("LIKE");
export const Escape = keyword("ESCAPE");
/** Reserved, as LIKE is: so SQLite's glob(p, x) call form is not taken (`x GLOB p` is). */
export const Glob = keyword("GLOB");
export const Collate = keyword("COLLATE");
export const Distinct = keyword("DISTINCT");
export const Group = keyword("GROUP");
export const Having = keyword("HAVING");
export const Returning = keyword("RETURNING");
export const Conflict = keyword("CONFLICT");
export const Do = keyword("DO");
export const Nothing = keyword("NOTHING");
export const Ignore = keyword("IGNORE");
export const Index = keyword("INDEX");
export const Alter = keyword("ALTER");
export const Add = keyword("ADD");
export const Column = keyword("COLUMN");
export const Rename = keyword("RENAME");
export const To = keyword("TO");
export const Union = keyword("UNION");
export const All = keyword("ALL");
export const Intersect = keyword("INTERSECT");
export const Except = keyword("EXCEPT");
export const With = keyword("WITH");
export const Recursive = keyword("RECURSIVE");
export const Nulls = keyword("NULLS");
export const First = keyword("FIRST");
export const Last = keyword("LAST");
export const Over = keyword("OVER");
/** An aggregate's `FILTER (WHERE …)`: soft, so `filter` may still name a column or an alias, as in SQLite. */
export const Filter = keyword("FILTER");
export const Partition = keyword("PARTITION");
export const Window = keyword("WINDOW");
export const Rows = keyword("ROWS");
export const Range = keyword("RANGE");
export const Groups = keyword("GROUPS");
export const Unbounded = keyword("UNBOUNDED");
export const Preceding = keyword("PRECEDING");
export const Following = keyword("FOLLOWING");
export const Current = keyword("CURRENT");
export const Row = keyword("ROW");
export const Exclude = keyword("EXCLUDE");
export const No = keyword("NO");
export const Others = keyword("OTHERS");
export const Ties = keyword("TIES");
/** REPLACE is also a function's name: a soft keyword, so `replace(a, b, c)` still reads as a call. */
export const Replace = keyword("REPLACE");
export const Abort = keyword("ABORT");
export const Fail = keyword("FAIL");
export const Rollback = keyword("ROLLBACK");
/** SQLite's postfix `x ISNULL` and `x NOTNULL`: soft, so a column may still be named so. */
export const Isnull = keyword("ISNULL");
export const Notnull = keyword("NOTNULL");

/** Every keyword, for tests and documentation. */
export const keywords: readonly TokenType[] = [
  Select, From, Where, And, Or, Not, Is, Null, True, False, As, Join, Inner, Left, Right, Full, Outer, Cross, Natural, Using, On, Order, By, Asc, Desc,
  Limit, Offset, Insert, Into, Values, Update, SetKeyword, Delete, Create, Table, If, Exists, Primary, Key, Unique,
  Default, References, Cascade, Restrict, Foreign, Check, Constraint, Drop, Explain, Case, When, Then, Else, End,
  Cast, In, Between, Like, Escape, Glob, Collate, Distinct, Group, Having, Returning, Conflict, Do, Nothing, Ignore, Index, Alter, Add, Column, Rename, To,
  Union, All, Intersect, Except, With, Recursive, Nulls, First, Last,
  Over, Filter, Partition, Window, Rows, Range, Groups, Unbounded, Preceding, Following, Current, Row, Exclude, No, Others, Ties,
  Replace, Abort, Fail, Rollback, Isnull, Notnull,
];

export const StringLiteral = createToken({
  name: "StringLiteral",
  label: "String",
  pattern: /'(?:[^']|'')*'/,
  start_chars_hint: ["'"],
});

/** Integers, decimals (`1.5`, `.5`, `1.`) and exponents (`1e-3`); the sign is a separate `-` token. */
export const NumberLiteral = createToken({
  name: "NumberLiteral",
  label: "Number",
  pattern: /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/,
  start_chars_hint: [..."0123456789."],
});

/** `?`, or `?NNN` (SQLite's numbered parameter, `?1`): digits right after the `?` are its number (`parser/params.ts`). */
export const Param = createToken({ name: "Param", label: "?", pattern: /\?\d*/, start_chars_hint: ["?"] });

/** Parent of the seven comparison operators, so the grammar consumes "any comparison" in one step. */
export const ComparisonOperator = createToken({ name: "ComparisonOperator", label: "comparison operator", pattern: Lexer.NA });

function operator(name: string, text: string): TokenType {
  return createToken({ name, label: text, pattern: text, categories: [ComparisonOperator] });
}

export const NotEquals = operator("NotEquals", "!=");
export const LessGreater = operator("LessGreater", "<>");
export const LessEquals = operator("LessEquals", "<=");
export const GreaterEquals = operator("GreaterEquals", ">=");
export const Equals = operator("Equals", "=");
export const Less = operator("Less", "<");
export const Greater = operator("Greater", ">");

/**
 * Parent of the binary arithmetic operators (`+ - * / % ||`), so the grammar
 * reads an operator chain in one loop and `to-ast.ts` applies precedence.
 * `*` and `-` keep their own roles too (`SELECT *`, `count(*)`, unary minus).
 */
export const ArithmeticOperator = createToken({ name: "ArithmeticOperator", label: "arithmetic operator", pattern: Lexer.NA });

function arithmetic(name: string, text: string): TokenType {
  return createToken({ name, label: text, pattern: text, categories: [ArithmeticOperator] });
}

export const Concat = arithmetic("Concat", "||");
/** SQLite's JSON operators, at `||`'s precedence; listed before `-`, and `->>` before `->`, so neither is read as a minus sign. */
export const JsonText = arithmetic("JsonText", "->>");
export const JsonExtract = arithmetic("JsonExtract", "->");
export const Plus = arithmetic("Plus", "+");
export const Slash = arithmetic("Slash", "/");
export const Percent = arithmetic("Percent", "%");

export const LParen = createToken({ name: "LParen", label: "(", pattern: "(" });
export const RParen = createToken({ name: "RParen", label: ")", pattern: ")" });
export const Comma = createToken({ name: "Comma", label: ",", pattern: "," });
export const Dot = createToken({ name: "Dot", label: ".", pattern: "." });
export const Star = arithmetic("Star", "*");
export const Semicolon = createToken({ name: "Semicolon", label: ";", pattern: ";" });
export const Minus = arithmetic("Minus", "-");

export const LineComment = createToken({
  name: "LineComment",
  pattern: /--[^\n\r]*/,
  start_chars_hint: ["-"],
  group: Lexer.SKIPPED,
});

export const BlockComment = createToken({
  name: "BlockComment",
  pattern: /\/\*[\s\S]*?\*\//,
  start_chars_hint: ["/"],
  group: Lexer.SKIPPED,
});

/**
 * The start of a block comment that never closes: listed after
 * BlockComment, so it only matches where that cannot, and before `/`, so
 * the comment is not read as a division. `lex` reports it as an
 * unterminated comment.
 */
export const UnterminatedComment = createToken({
  name: "UnterminatedComment",
  pattern: /\/\*/,
  start_chars_hint: ["/"],
});

export const Whitespace = createToken({
  name: "Whitespace",
  pattern: /[ \t\r\n\f\v]+/,
  start_chars_hint: [" ", "\t", "\r", "\n", "\f", "\v"],
  group: Lexer.SKIPPED,
});

/** The lexer's token list, in matching order (see the header). */
export const allTokens: readonly TokenType[] = [
  Whitespace,
  LineComment,
  BlockComment,
  UnterminatedComment,
  Identifier,
  ComparisonOperator,
  ArithmeticOperator,
  // Longest first, so a keyword that is a prefix of another (OR, ORDER) never shadows it.
  ...[...keywords].sort((a, b) => String(b.PATTERN).length - String(a.PATTERN).length),
  BareIdentifier,
  QuotedIdentifier,
  StringLiteral,
  NumberLiteral,
  Param,
  NotEquals,
  LessGreater,
  LessEquals,
  GreaterEquals,
  Equals,
  Less,
  Greater,
  LParen,
  RParen,
  Comma,
  Dot,
  Star,
  Semicolon,
  JsonText,
  JsonExtract,
  Minus,
  Concat,
  Plus,
  Slash,
  Percent,
];
