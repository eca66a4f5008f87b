import Foundation

/// One input of a batch: a file as given, or found in a folder given.
struct InputFile: Sendable, Equatable {
    /// The file's path.
    let path: String
    /// The folder its output goes to, relative to `--out`: empty for a file given by name or
    /// found directly in a folder given; `a/b` for one found in the given folder's `a/b`.
    let folder: String
}

/// The files a batch command's arguments name: files as given; for a folder, the images and
/// videos in it (by extension, hidden files left out, in name order), and with `recursive` those
/// of its subfolders too, each keeping its subfolder so that the outputs mirror the tree.
enum InputFiles {
    /// Extensions of the files a folder contributes (what Iris decodes).
    static let extensions: Set<String> = [
        "jpg", "jpeg", "png", "apng", "gif", "webp", "avif", "heic", "heif", "jxl", "tif", "tiff", "bmp", "ico",
        "svg", "mp4", "m4v", "mov", "webm", "mkv",
    ]

    /// What a folder argument gave: the files, and the subfolders left out (without `recursive`).
    struct Expansion: Sendable, Equatable {
        var files: [InputFile] = []
        var skippedFolders: [String] = []
    }

    /// The inputs `arguments` name. A folder that holds no image (with `recursive`, in none of
    /// its subfolders either) is an error naming it; an argument that does not exist is passed on
    /// as a file (its job then reports it).
    static func expand(_ arguments: [String], recursive: Bool) throws(InputFilesError) -> Expansion {
        var expansion = Expansion()
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue else {
                expansion.files.append(InputFile(path: argument, folder: ""))
                continue
            }
            let before = expansion.files.count
            try collect(folder: URL(fileURLWithPath: argument, isDirectory: true), relative: "", recursive: recursive, into: &expansion)
            if expansion.files.count == before { throw .noImages(folder: argument, recursive: recursive) }
        }
        return expansion
    }

    private static func collect(folder: URL, relative: String, recursive: Bool, into expansion: inout Expansion) throws(InputFilesError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw .unreadable(folder: folder.path, reason: error.localizedDescription)
        }
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                let subfolder = relative.isEmpty ? name : relative + "/" + name
                if recursive {
                    try collect(folder: url, relative: subfolder, recursive: true, into: &expansion)
                } else {
                    expansion.skippedFolders.append(url.path)
                }
            } else if extensions.contains(url.pathExtension.lowercased()) {
                expansion.files.append(InputFile(path: url.path, folder: relative))
            }
        }
    }
}

/// Why the files of a folder argument could not be listed.
enum InputFilesError: Error, Equatable, CustomStringConvertible {
    /// The folder holds no file Iris reads.
    case noImages(folder: String, recursive: Bool)
    /// The folder could not be read.
    case unreadable(folder: String, reason: String)

    var description: String {
        switch self {
        case .noImages(let folder, let recursive):
            "\(folder) holds no image or video file\(recursive ? ", in any subfolder either" : " (add -r to take its subfolders)")"
        case .unreadable(let folder, let reason):
            "cannot list \(folder): \(reason)"
        }
    }
}
