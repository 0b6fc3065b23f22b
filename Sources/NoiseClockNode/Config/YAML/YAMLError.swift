/// Why a text is not a usable YAML document, in one line (e.g. `did not find expected ',' or
/// ']' at line 2, column 1`).
struct YAMLError: Error, Equatable {
    let message: String
}
