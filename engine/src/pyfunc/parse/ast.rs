//! The syntax tree of the Python subset (statements, expressions, assignment targets), each node with its source line, as Python's `ast` module shapes it.

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (true division)
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `is`
    Is,
    /// `is not`
    IsNot,
    /// `and` (short-circuit)
    And,
    /// `or` (short-circuit)
    Or,
}

impl BinOp {
    /// The operator as Python writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Is => "is",
            BinOp::IsNot => "is not",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `not x`
    Not,
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `~x`
    Invert,
}

/// An expression with the source line it starts on (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The source line the expression starts on (1-based).
    pub line: usize,
    /// What the expression is.
    pub kind: ExprKind,
}

/// An expression's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `None`
    None,
    /// `True` / `False`
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal's value.
    Str(String),
    /// A name read (local, global or builtin).
    Name(String),
    /// `(a, b)`
    Tuple(Vec<Expr>),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `{k: v}`: (key, value) pairs in the order written.
    Dict(Vec<(Expr, Expr)>),
    /// `[elt for targets in iter if cond…]`.
    ListComp {
        /// The expression collected for each item.
        elt: Box<Expr>,
        /// Where each item is stored.
        target: Box<Target>,
        /// The iterable.
        iter: Box<Expr>,
        /// The `if` filters, all of which must hold.
        conds: Vec<Expr>,
    },
    /// `obj.name`
    Attr(Box<Expr>, String),
    /// `func(args, name=value)`
    Call {
        /// The callee.
        func: Box<Expr>,
        /// Positional arguments.
        args: Vec<Expr>,
        /// Keyword arguments, in the order written.
        kwargs: Vec<(String, Expr)>,
    },
    /// `obj[key]`
    Index(Box<Expr>, Box<Expr>),
    /// `lo:hi` inside a subscript: (a placeholder `None`, lower bound, upper bound).
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// A unary operator applied to its operand.
    Unary(UnOp, Box<Expr>),
    /// A binary operator with its left and right operands.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `body if test else orelse`.
    IfElse {
        /// The value when `test` holds.
        body: Box<Expr>,
        /// The condition.
        test: Box<Expr>,
        /// The value otherwise.
        orelse: Box<Expr>,
    },
    /// `lambda params: body`: a function whose body returns one expression.
    Lambda(std::rc::Rc<FuncDef>),
    /// `f"text {expr!r:spec} text"`.
    FString(Vec<FPart>),
}

/// A piece of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub enum FPart {
    /// Literal text (`{{` and `}}` already read as braces).
    Text(String),
    /// `{expr}`, with its conversion (`!r`, `!s`) and format spec (`.2f`), if any.
    Value {
        /// The expression inside the braces.
        expr: Expr,
        /// The conversion character after `!` (`r`, `s`).
        conversion: Option<char>,
        /// The format spec after `:`; empty when none.
        spec: String,
    },
}

/// Where an assignment or a `for` loop stores.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// `x = …`
    Name(String),
    /// `obj[key] = …`
    Index(Expr, Expr),
    /// `obj.name = …`
    Attr(Expr, String),
    /// `a, b = …` (unpacking).
    Tuple(Vec<Target>),
}

/// A statement with its source line (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// The source line the statement starts on (1-based).
    pub line: usize,
    /// What the statement is.
    pub kind: StmtKind,
}

/// A function definition.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncDef {
    /// The function's name (`<lambda>` for a lambda).
    pub name: String,
    /// The parameters in order, each with its default value if it has one.
    pub params: Vec<(String, Option<Expr>)>,
    /// The statements of the body.
    pub body: Vec<Stmt>,
    /// True if the body holds a `yield` (a generator: calling it collects what it yields).
    pub generator: bool,
    /// The line of the `def` (1-based).
    pub line: usize,
    /// The decorators above the `def`, as written without the `@` (`F.udf("string")`),
    /// outermost first. The interpreter runs the function as it is; the query side reads
    /// them (a `@udf` function is a Python UDF).
    pub decorators: Vec<String>,
}

/// A statement's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `def name(params): body`
    Def(std::rc::Rc<FuncDef>),
    /// `class Name(Base, ...):` with its body (methods, class attributes).
    Class {
        /// The class name.
        name: String,
        /// The base classes as written.
        bases: Vec<Expr>,
        /// The class body.
        body: Vec<Stmt>,
    },
    /// `if` / `elif` / `else`.
    If {
        /// Each `if` and `elif` test with its block, in order.
        branches: Vec<(Expr, Vec<Stmt>)>,
        /// The `else` block; empty when there is none.
        orelse: Vec<Stmt>,
    },
    /// `for target in iter: body`
    For {
        /// Where each item is stored.
        target: Target,
        /// The iterable.
        iter: Expr,
        /// The loop body.
        body: Vec<Stmt>,
    },
    /// `while test: body`
    While {
        /// The loop condition.
        test: Expr,
        /// The loop body.
        body: Vec<Stmt>,
    },
    /// `pass`
    Pass,
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return [value]`
    Return(Option<Expr>),
    /// `yield [value]`
    Yield(Option<Expr>),
    /// `assert test[, message]`.
    Assert(Expr, Option<Expr>),
    /// `import pandas as pd`: (module, bound name).
    Import(Vec<(String, String)>),
    /// `from m import a as b`: (module, [(name, bound name)]); `from m import *` is
    /// `[("*", "*")]`.
    FromImport(String, Vec<(String, String)>),
    /// `a = b = value`
    Assign {
        /// The targets, left to right; each receives the value.
        targets: Vec<Target>,
        /// The assigned expression.
        value: Expr,
    },
    /// `target op= value` (`n += 1`).
    AugAssign {
        /// Where the result is stored.
        target: Target,
        /// The operator (`Add` for `+=`).
        op: BinOp,
        /// The right-hand side.
        value: Expr,
    },
    /// An expression statement (a call, for example).
    Expr(Expr),
}
