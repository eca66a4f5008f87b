import Foundation

/// Where each input of a batch writes its output, decided before anything is written, so that
/// no two inputs of one batch end in one file and no output replaces an input.
///
/// The rule (`iris thumbnail --help` and `iris sheet --help` say it too):
/// - an output is named after its input's file name without the extension:
///   `photos/beach.jpg` → `beach.<ext>`;
/// - inputs whose names without the extension are equal (ignoring case: on a case-insensitive
///   disk `A` and `a` are one file) keep their own extension in the name instead:
///   `a.jpg` and `a.png` → `a.jpg.<ext>` and `a.png.<ext>`;
/// - inputs that still share a name (`x/a.jpg` and `y/a.jpg`, or one file given twice), or an
///   output that would replace one of the inputs, stop the batch before anything is written
///   with an ``OutputPlanError`` naming both.
///
/// Existing files of other names in the output directory are replaced, as a re-run expects.
struct OutputPlan: Sendable {
    /// Where the outputs go.
    let directory: URL
    /// Per input, in input order, the output's name without its extension.
    let baseNames: [String]

    /// Plans the outputs of `inputs` (paths as given) in `directory`. `extensions` are the
    /// extensions an output may get (the first is the usual one, the one errors name); an output
    /// under any of them must not replace an input.
    init(inputs: [String], directory: URL, extensions: [String]) throws(OutputPlanError) {
        try self.init(inputs: inputs.map { InputFile(path: $0, folder: "") }, directory: directory, extensions: extensions)
    }

    /// Plans the outputs of `inputs` in `directory`, each in its ``InputFile/folder`` under it
    /// (the rule above applies within each folder).
    init(inputs files: [InputFile], directory: URL, extensions: [String]) throws(OutputPlanError) {
        self.directory = directory
        let inputs = files.map(\.path)
        let urls = inputs.map { URL(fileURLWithPath: $0) }
        let stems = zip(urls, files).map { url, file in Self.inFolder(file.folder, url.deletingPathExtension().lastPathComponent) }
        var stemCounts: [String: Int] = [:]
        for stem in stems { stemCounts[stem.lowercased(), default: 0] += 1 }
        let baseNames = zip(zip(urls, files), stems).map { input, stem in
            stemCounts[stem.lowercased(), default: 0] > 1 ? Self.inFolder(input.1.folder, input.0.lastPathComponent) : stem
        }
        self.baseNames = baseNames

        let usual = extensions.first ?? ""
        var owners: [String: Int] = [:]
        for (index, base) in baseNames.enumerated() {
            if let first = owners[base.lowercased()] {
                throw .sameOutput(
                    first: inputs[first], second: inputs[index],
                    output: Self.url(directory, base, usual).path)
            }
            owners[base.lowercased()] = index
        }

        var inputIndex: [String: Int] = [:]
        for (index, url) in urls.enumerated() { inputIndex[Self.resolved(url)] = index }
        for base in baseNames {
            for fileExtension in extensions {
                let output = Self.url(directory, base, fileExtension)
                if let input = inputIndex[Self.resolved(output)] {
                    throw .replacesInput(input: inputs[input], output: output.path)
                }
            }
        }
    }

    /// The subfolders of ``directory`` the outputs go to (made before anything is written).
    var folders: Set<URL> {
        Set(baseNames.map { Self.url(directory, $0, "").deletingLastPathComponent().standardizedFileURL })
    }

    /// `name` in `folder` (a path relative to the output directory; empty: the directory).
    private static func inFolder(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// The output file of input `index` when written with `fileExtension`.
    func url(for index: Int, fileExtension: String) -> URL {
        Self.url(directory, baseNames[index], fileExtension)
    }

    private static func url(_ directory: URL, _ base: String, _ fileExtension: String) -> URL {
        directory.appendingPathComponent(fileExtension.isEmpty ? base : base + "." + fileExtension)
    }

    /// `url` as an absolute path with symbolic links (of the directories that exist) resolved.
    private static func resolved(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Why a batch's outputs cannot be planned; nothing has been written.
enum OutputPlanError: Error, Equatable, CustomStringConvertible {
    /// Two inputs would be written to one file.
    case sameOutput(first: String, second: String, output: String)
    /// An output would replace an input.
    case replacesInput(input: String, output: String)

    var description: String {
        switch self {
        case .sameOutput(let first, let second, let output):
            "\(first) and \(second) would both be written to \(output); rename one, or run them with different --out directories (nothing was written)"
        case .replacesInput(let input, let output):
            "the output \(output) would replace the input \(input); choose another --out directory (nothing was written)"
        }
    }
}
