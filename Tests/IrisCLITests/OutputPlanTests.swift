import Foundation
@testable import IrisCLI
import Testing
import IrisTestSupport

/// Output naming of `iris thumbnail` and `iris sheet`: no two inputs of a batch end in one
/// file, and no output replaces an input.
@Suite("CLI output plan")
struct OutputPlanTests {
    let out = URL(fileURLWithPath: "/tmp/iris-plan-out", isDirectory: true)

    @Test("Outputs are named after their inputs without the extension")
    func plainNames() throws {
        let plan = try OutputPlan(inputs: ["in/beach.jpg", "other/dog.png", "cat.webp"], directory: out, extensions: ["jpg"])
        #expect(plan.baseNames == ["beach", "dog", "cat"])
        #expect(plan.url(for: 1, fileExtension: "jpg").path == "/tmp/iris-plan-out/dog.jpg")
    }

    @Test("Inputs found in subfolders keep them: one name in two folders is two outputs; the rule holds within a folder")
    func folders() throws {
        let inputs = [
            InputFile(path: "p/a.jpg", folder: ""), InputFile(path: "p/2024/a.jpg", folder: "2024"),
            InputFile(path: "p/2024/b.jpg", folder: "2024"), InputFile(path: "p/2024/b.png", folder: "2024"),
        ]
        let plan = try OutputPlan(inputs: inputs, directory: out, extensions: ["jpg"])
        #expect(plan.baseNames == ["a", "2024/a", "2024/b.jpg", "2024/b.png"])
        #expect(plan.url(for: 1, fileExtension: "jpg").path == "/tmp/iris-plan-out/2024/a.jpg")
        #expect(plan.folders.map(\.path).sorted() == ["/tmp/iris-plan-out", "/tmp/iris-plan-out/2024"])
    }

    @Test("Inputs whose names differ only in the extension keep it")
    func sharedStemKeepsExtension() throws {
        let plan = try OutputPlan(inputs: ["a.jpg", "a.png", "b.jpg"], directory: out, extensions: ["jpg"])
        #expect(plan.baseNames == ["a.jpg", "a.png", "b"])
        #expect(plan.url(for: 0, fileExtension: "jpg").lastPathComponent == "a.jpg.jpg")
        #expect(plan.url(for: 1, fileExtension: "webp").lastPathComponent == "a.png.webp")
    }

    @Test("Names that differ only in case count as one (a case-insensitive disk)")
    func caseInsensitive() throws {
        let plan = try OutputPlan(inputs: ["Photo.JPG", "photo.png"], directory: out, extensions: ["jpg"])
        #expect(plan.baseNames == ["Photo.JPG", "photo.png"])
        #expect(throws: OutputPlanError.self) {
            try OutputPlan(inputs: ["x/A.jpg", "y/a.JPG"], directory: out, extensions: ["jpg"])
        }
    }

    @Test("The same file name in two folders stops the batch, naming both inputs")
    func sameNameInTwoFolders() {
        #expect(throws: OutputPlanError.sameOutput(first: "x/a.jpg", second: "y/a.jpg", output: "/tmp/iris-plan-out/a.jpg.jpg")) {
            try OutputPlan(inputs: ["x/a.jpg", "y/a.jpg"], directory: out, extensions: ["jpg"])
        }
    }

    @Test("One file given twice stops the batch")
    func sameFileTwice() {
        #expect(throws: OutputPlanError.self) {
            try OutputPlan(inputs: ["a.jpg", "b.png", "a.jpg"], directory: out, extensions: ["png"])
        }
    }

    @Test("A kept extension that meets another input's name stops the batch")
    func keptExtensionMeetsAnotherName() {
        // a.png and a.jpg keep their extensions: a.png clashes with a.png.png's own stem.
        #expect(throws: OutputPlanError.sameOutput(first: "a.png.png", second: "a.png", output: "/tmp/iris-plan-out/a.png.jpg")) {
            try OutputPlan(inputs: ["a.png.png", "a.png", "a.jpg"], directory: out, extensions: ["jpg"])
        }
    }

    @Test("An output that would replace an input stops the batch")
    func replacesInput() throws {
        let directory = try CLITestSupport.directory("plan")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("a.jpg").path
        #expect(throws: OutputPlanError.replacesInput(input: input, output: directory.appendingPathComponent("a.jpg").path)) {
            try OutputPlan(inputs: [input], directory: directory, extensions: ["jpg"])
        }
        // Animated inputs may become WebP: that name is checked too.
        let webp = directory.appendingPathComponent("b.webp").path
        #expect(throws: OutputPlanError.self) {
            try OutputPlan(inputs: [webp], directory: directory, extensions: ["jpg", "webp"])
        }
        // The same directory with another extension is fine.
        let plan = try OutputPlan(inputs: [input], directory: directory, extensions: ["png"])
        #expect(plan.baseNames == ["a"])
    }

    @Test("The error names both inputs and says nothing was written")
    func readableError() {
        let error = OutputPlanError.sameOutput(first: "x/a.jpg", second: "y/a.jpg", output: "out/a.jpg.jpg")
        #expect(error.description.contains("x/a.jpg and y/a.jpg"))
        #expect(error.description.contains("nothing was written"))
    }
}
