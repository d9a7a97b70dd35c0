//! The syntax tree of the Python subset (statements, expressions, assignment targets), each node with its source line, as Python's `ast` module shapes it.

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
    And,
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
    Not,
    Neg,
    Pos,
    Invert,
}

/// An expression with the source line it starts on (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub line: usize,
    pub kind: ExprKind,
}

/// An expression's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Name(String),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    /// `[elt for targets in iter if cond…]`.
    ListComp { elt: Box<Expr>, target: Box<Target>, iter: Box<Expr>, conds: Vec<Expr> },
    Attr(Box<Expr>, String),
    Call { func: Box<Expr>, args: Vec<Expr>, kwargs: Vec<(String, Expr)> },
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `body if test else orelse`.
    IfElse { body: Box<Expr>, test: Box<Expr>, orelse: Box<Expr> },
    /// `lambda params: body`: a function whose body returns one expression.
    Lambda(std::rc::Rc<FuncDef>),
    /// `f"text {expr!r:spec} text"`.
    FString(Vec<FPart>),
}

/// A piece of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub enum FPart {
    Text(String),
    /// `{expr}`, with its conversion (`!r`, `!s`) and format spec (`.2f`), if any.
    Value { expr: Expr, conversion: Option<char>, spec: String },
}

/// Where an assignment or a `for` loop stores.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Name(String),
    Index(Expr, Expr),
    Attr(Expr, String),
    Tuple(Vec<Target>),
}

/// A statement with its source line (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub line: usize,
    pub kind: StmtKind,
}

/// A function definition.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncDef {
    pub name: String,
    pub params: Vec<(String, Option<Expr>)>,
    pub body: Vec<Stmt>,
    /// True if the body holds a `yield` (a generator: calling it collects what it yields).
    pub generator: bool,
    pub line: usize,
}

/// A statement's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Def(std::rc::Rc<FuncDef>),
    /// `class Name(Base, ...):` with its body (methods, class attributes).
    Class { name: String, bases: Vec<Expr>, body: Vec<Stmt> },
    If { branches: Vec<(Expr, Vec<Stmt>)>, orelse: Vec<Stmt> },
    For { target: Target, iter: Expr, body: Vec<Stmt> },
    While { test: Expr, body: Vec<Stmt> },
    Pass,
    Break,
    Continue,
    Return(Option<Expr>),
    Yield(Option<Expr>),
    /// `assert test[, message]`.
    Assert(Expr, Option<Expr>),
    /// `import pandas as pd`: (module, bound name).
    Import(Vec<(String, String)>),
    /// `from m import a as b`: (module, [(name, bound name)]); `from m import *` is
    /// `[("*", "*")]`.
    FromImport(String, Vec<(String, String)>),
    Assign { targets: Vec<Target>, value: Expr },
    AugAssign { target: Target, op: BinOp, value: Expr },
    Expr(Expr),
}
