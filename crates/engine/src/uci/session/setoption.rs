//! `setoption`: the options applied, and the files they name (network,
//! policy, weights, book, tables) loaded and checked before anything held
//! is replaced; a refused file puts the option back as it was.

use super::*;

impl Session {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let before = self.options.clone();
        let strength = |o: &EngineOptions| o.limit_strength.then_some(o.elo);
        let strength_before = strength(&before);
        match self.options.set(name, value) {
            Ok(Applied::ClearHash) => self.with_driver(|d| d.clear()),
            // A size the machine cannot give is refused before the old table
            // is dropped: the probe allocation fails, the options go back.
            Ok(Applied::ResizeHash)
                if TranspositionTable::try_new(self.options.hash_mb, Replacement::default())
                    .is_err() =>
            {
                let asked = self.options.hash_mb;
                self.options = before;
                self.error(format!(
                    "cannot allocate a {asked} MB hash table; Hash stays {} MB",
                    self.options.hash_mb
                ));
            }
            Ok(Applied::EvalFile) => match load_network(Some(Path::new(&self.options.eval_file))) {
                Ok(net) => {
                    self.out.string(&format!(
                        "loaded network {} ({:?})",
                        self.options.eval_file, net
                    ));
                    self.net = net;
                    self.rebuild_driver();
                }
                Err(e) => {
                    self.options = before;
                    self.error(format!("{e}; the current network stays"));
                }
            },
            Ok(Applied::PolicyFile) => match load_policy(&self.options.policy_file) {
                Ok(policy) => {
                    let what = policy
                        .as_ref()
                        .map_or("the hand-written policy".to_string(), |n| format!("{n:?}"));
                    self.out.string(&format!(
                        "loaded policy {} ({what})",
                        self.options.policy_file
                    ));
                    self.policy = policy;
                    self.rebuild_driver();
                }
                Err(e) => {
                    self.options = before;
                    self.error(format!("{e}; the current policy stays"));
                }
            },
            Ok(Applied::EvalWeights) => self.load_weights(before),
            Ok(Applied::BookFile) => self.load_book(before),
            Ok(Applied::SyzygyPath) => self.load_syzygy(before),
            Ok(_) => {
                // The book options leave the searcher (and its table) alone.
                let unbooked = |o: &EngineOptions| EngineOptions {
                    own_book: false,
                    book_best_move: false,
                    ..o.clone()
                };
                if unbooked(&self.options) != unbooked(&before) {
                    self.rebuild_driver();
                }
            }
            Err(e) => self.error(e),
        }
        // Say what a strength setting means, so that a GUI's log shows it.
        if let Some(elo) =
            strength(&self.options).filter(|_| strength_before != strength(&self.options))
        {
            self.out.string(&format!(
                "UCI_Elo {elo}: {} nodes a move",
                strength_nodes(elo)
            ));
        }
    }

    /// The evaluation the options ask for: `Evaluation`, with the network
    /// of `EvalFile` and the weights of `EvalWeights`.
    pub(super) fn eval_choice(&self) -> EvalChoice {
        let plain = EvalChoice::new(self.options.evaluation, &self.net);
        match &self.weights {
            // The text was checked when it was loaded.
            Some(text) => plain.clone().with_weights(text).unwrap_or(plain),
            None => plain,
        }
    }

    /// A new searcher for the current options (its table starts empty).
    fn rebuild_driver(&mut self) {
        let driver = build_driver(
            &self.options,
            &self.eval_choice(),
            self.syzygy.as_ref(),
            self.policy.as_ref(),
        );
        self.with_driver(|d| *d = driver);
    }

    /// `EvalWeights`: reads the weights the option names (none for an
    /// empty name). A file that cannot be read or holds a line that is not
    /// a known weight and an integer is refused, and the previous weights
    /// and option value stay.
    fn load_weights(&mut self, before: EngineOptions) {
        let file = self.options.eval_weights.clone();
        if file.is_empty() {
            self.weights = None;
        } else {
            match read_weights(Path::new(&file)) {
                Ok(text) => {
                    self.out.string(&format!("loaded weights {file}"));
                    self.weights = Some(text);
                }
                Err(e) => {
                    self.options = before;
                    self.error(format!(
                        "EvalWeights `{file}`: {e}; the previous weights stay"
                    ));
                    return;
                }
            }
        }
        self.rebuild_driver();
    }

    /// `SyzygyPath`: finds the tables of the directories the option lists
    /// (none for an empty path). A directory that cannot be read or holds no
    /// table is refused with an error, and the previous tables (or none) and
    /// option value stay: the engine plays on.
    fn load_syzygy(&mut self, before: EngineOptions) {
        let path = self.options.syzygy_path.clone();
        if path.is_empty() {
            self.syzygy = None;
        } else {
            let mut tables = Tablebase::new();
            match tables.add_directories(&path) {
                Ok(files) => {
                    self.out.line(&format!(
                        "info string Syzygy: {files} table files, {} endgames of up to {} pieces",
                        tables.materials(),
                        tables.max_pieces()
                    ));
                    // Each table is opened now, not at its first probe in a
                    // search, so that every file refused is named here.
                    for bad in tables.open_all() {
                        self.error(format!("Syzygy table refused, not used: {bad}"));
                    }
                    self.syzygy = Some(Arc::new(tables));
                }
                Err(e) => {
                    self.options = before;
                    let now = if self.syzygy.is_some() {
                        "the previous tables stay"
                    } else {
                        "playing without tables"
                    };
                    self.error(format!("SyzygyPath `{path}`: {e}; {now}"));
                    return;
                }
            }
        }
        self.rebuild_driver();
    }

    /// `BookFile`: loads the book the option names (none for an empty
    /// name). A file that cannot be read or is not a Polyglot book is
    /// refused, and the previous book and option value stay.
    fn load_book(&mut self, before: EngineOptions) {
        let file = self.options.book_file.clone();
        if file.is_empty() {
            self.book = None;
            return;
        }
        match Book::open(&file) {
            Ok(book) => {
                self.out
                    .string(&format!("loaded book {file} ({} entries)", book.len()));
                self.book = Some(book);
            }
            Err(e) => {
                self.options = before;
                self.error(format!("BookFile `{file}`: {e}; the previous book stays"));
            }
        }
    }
}
