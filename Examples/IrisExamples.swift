// An example app that uses every initialiser of IrisImage and IrisImageView. It is not built by
// the package (it needs an app target); `scripts/typecheck-apple` type-checks it against the
// iOS and macOS SDKs after building Iris and IrisUI for them.
#if canImport(SwiftUI)
import Iris
import IrisUI
import SwiftUI

/// Photos from a server, an asset store and a shared model.
struct Photo: Identifiable, Hashable, Sendable {
    let id: Int
    var url: URL { URL(string: "https://picsum.photos/id/\(id)/1200/900")! }
}

@main
struct IrisExamplesApp: App {
    var body: some Scene {
        WindowGroup {
            NavigationStack {
                List {
                    NavigationLink("Grid") { PhotoGrid() }
                    NavigationLink("Every initialiser") { EveryInitialiser() }
                    NavigationLink("Shared model") { SharedModelExample() }
                    NavigationLink("AsyncImage idioms") { AsyncImageIdioms() }
                    NavigationLink("A feed: List rows with spinners") { PostFeed() }
                    NavigationLink("A short video") { VideoClip(url: VideoClip.sampleURL) }
                    #if canImport(UIKit)
                    NavigationLink("A short video in UIKit") { UIKitVideoView(url: VideoClip.sampleURL) }
                    NavigationLink("UIKit view") { UIKitImageView(url: Photo(id: 10).url) }
                    NavigationLink("UIKit table") { PhotoTable() }
                    #endif
                }
                .navigationTitle("Iris")
            }
            .imagePipeline(.shared)
        }
    }
}

/// The grid of IrisUI's "Getting started" article: each cell decodes at its own size.
struct PhotoGrid: View {
    let photos = (0..<200).map(Photo.init)

    var body: some View {
        ScrollView {
            LazyVGrid(columns: [GridItem(.adaptive(minimum: 100), spacing: 2)], spacing: 2) {
                ForEach(photos) { photo in
                    // A square cell whose full size is offered to the image (its slot).
                    Color.clear.aspectRatio(1, contentMode: .fit).overlay {
                        // A closed slot is covered by default: scaledToFill is sharp with no modifier.
                        IrisImage(url: photo.url) { image in
                            image.resizable().scaledToFill()
                        } placeholder: {
                            Color.gray.opacity(0.2)
                        }
                    }
                    .clipped()
                }
            }
        }
    }
}

/// Each initialiser and modifier once.
struct EveryInitialiser: View {
    let url = Photo(id: 20).url
    @State private var assetID = 1

    var body: some View {
        ScrollView {
            VStack(spacing: 16) {
                // AsyncImage(url:scale:)
                IrisImage(url: url, scale: 3)

                // AsyncImage(url:scale:content:placeholder:)
                IrisImage(url: url) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                .frame(width: 200, height: 150)

                // AsyncImage(url:scale:transaction:content:), the phase closure unchanged.
                IrisImage(url: url, transaction: Transaction(animation: .easeIn)) { phase in
                    if let image = phase.image {
                        image.resizable().scaledToFill()
                    } else if phase.error != nil {
                        Color.red
                    } else {
                        Color.blue
                    }
                }
                .frame(width: 120, height: 120)
                .clipShape(Circle())

                // A full request: a file, processors, priority.
                IrisImage(request: ImageRequest(url: url, processors: [.circle], priority: .high)) { phase in
                    if let image = phase.image {
                        image.resizable()
                    } else if let progress = phase.progress?.fractionCompleted {
                        ProgressView(value: progress)
                    } else {
                        Color.gray
                    }
                }
                .frame(width: 80, height: 80)

                // Any async source: reloads when the id changes.
                IrisImage(id: assetID, targetSize: CGSize(width: 100, height: 100)) {
                    try await AssetStore.data(for: assetID)
                } content: { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    Color.secondary
                }
                .frame(width: 100, height: 100)
                Button("Next asset") { assetID += 1 }

                IrisImage(
                    id: assetID, load: { try await AssetStore.data(for: assetID) },
                    transaction: Transaction(animation: .default)
                ) { phase in
                    if let image = phase.image { image.resizable().scaledToFit() } else { Color.gray }
                }
                .pipeline(.shared)
                .priority(.low)
                .processors([.roundedCorners(radius: 8)])
                .contentMode(.fit)
                .animatesFrames(false)
                .onCompletion { result in
                    if case .failure(let error) = result { print("asset failed: \(error)") }
                }
                .frame(width: 160, height: 90)
            }
        }
    }
}

/// A model owned here and shown by two views at once.
struct SharedModelExample: View {
    @State private var model = ImageModel()

    var body: some View {
        VStack {
            IrisImage(model: model) { phase in
                phase.image?.resizable().scaledToFit()
            }
            IrisImage(model: model, transaction: Transaction(animation: .easeOut)) { phase in
                switch phase {
                case .empty, .loading: ProgressView()
                case .preview(let image), .success(let image): Image(image).resizable().scaledToFit()
                case .failure(let error): Text(error.description)
                }
            }
            Button("Retry") { model.retry() }
        }
        .task { model.load(ImageRequest(url: Photo(id: 30).url, targetSize: CGSize(width: 300, height: 300), scale: 2)) }
    }
}

/// What people write with `AsyncImage`; each loads (decoded for the frame it is offered, never for
/// the placeholder's size) and each loads once.
struct AsyncImageIdioms: View {
    let url = Photo(id: 40).url
    let post = (id: 7, author: 7)  // two ids of equal value, of different things

    var body: some View {
        ScrollView {
            VStack(spacing: 12) {
                // An empty placeholder: nothing to measure, still loads.
                IrisImage(url: url) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    EmptyView()
                }
                .frame(width: 120, height: 90)

                // Optional chaining: no view at all until the image is there.
                IrisImage(url: url) { phase in phase.image?.resizable() }
                    .frame(width: 64, height: 48)

                // `if let` without an else.
                IrisImage(url: url) { phase in
                    if let image = phase.image { image }
                }

                // A spinner in a fixed frame: decoded for 50×50, not for the spinner.
                IrisImage(url: url) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                .frame(width: 50, height: 50)

                // Fill and clip, no content-mode modifier: the decode covers the frame, once.
                IrisImage(url: url) { image in
                    image.resizable().scaledToFill()
                } placeholder: {
                    Color.gray
                }
                .frame(width: 120, height: 120)
                .clipped()

                // A fill avatar, as AsyncImage users write it.
                IrisImage(url: Photo(id: 41).url) { image in
                    image.resizable().scaledToFill()
                } placeholder: {
                    Color.gray
                }
                .frame(width: 44, height: 44)
                .clipShape(Circle())

                // A short clip in a card, as any AsyncImage closure is written: the marked image
                // plays the clip where its poster is; the card, the padding and the caption stay.
                IrisImage(url: URL(string: "https://example.com/loop.mp4")) { phase in
                    VStack(alignment: .leading, spacing: 4) {
                        if let image = phase.image {
                            image.resizable().scaledToFit().playsVideo()
                                .frame(maxWidth: .infinity, maxHeight: 90)
                        } else {
                            Color.gray.frame(height: 90)
                        }
                        Text("Harbour, 0:02").font(.caption)
                    }
                    .padding(8)
                    .background(.thinMaterial, in: .rect(cornerRadius: 10))
                }
                .frame(width: 180)

                // A 1x icon shown without resizable(): its natural size, 100 px = 100 pt on any screen.
                IrisImage(url: URL(string: "https://example.com/icon-100.png"), scale: 1) {
                    $0
                } placeholder: {
                    ProgressView()
                }

                // Named for VoiceOver: a label parameter, or .accessibilityLabel on phase.image.
                IrisImage(url: url, label: Text("A harbour at dusk")) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                .frame(width: 120, height: 90)
                IrisImage(url: url) { phase in
                    phase.image?.resizable().scaledToFit().accessibilityLabel("A harbour at dusk")
                }
                .frame(width: 120, height: 90)
                // A decoration VoiceOver skips.
                IrisImage(url: url) { phase in phase.decorativeImage?.resizable().scaledToFill() }
                    .frame(height: 40)
                    .clipped()

                // Two data sources whose ids are equal: each view keeps its own image...
                IrisImage(id: post.id) {
                    try await AssetStore.data(for: post.id)
                } content: { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    Color.secondary
                }
                .frame(width: 80, height: 80)
                IrisImage(id: post.author) {
                    try await AssetStore.avatar(for: post.author)
                } content: { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    Color.secondary
                }
                .frame(width: 80, height: 80)
                // ...and an explicit cache key shares one image between every view that gives it.
                IrisImage(id: post.author, cacheKey: "avatar-\(post.author)") {
                    try await AssetStore.avatar(for: post.author)
                } content: { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    Color.secondary
                }
                .frame(width: 40, height: 40)
            }
        }
    }
}

/// A feed: each List row is as tall as its spinner until its image arrives, then as tall as the
/// image. The image is decoded once (the spinner's slot is covered, so the grown row needs no
/// more pixels), and a row scrolled away and back finds it in memory.
struct PostFeed: View {
    struct Post: Identifiable, Sendable {
        let id: Int
        let alt: String
        var url: URL { Photo(id: id).url }
    }

    let posts = (100..<300).map { Post(id: $0, alt: "Photo \($0)") }

    var body: some View {
        List(posts) { post in
            IrisImage(url: post.url, label: Text(post.alt)) { image in
                image.resizable().scaledToFit()
            } placeholder: {
                ProgressView()
            }
            .onCompletion { result in
                if case .failure(let error) = result { print("post \(post.id): \(error)") }
            }
        }
    }
}

/// Stands in for a photo library or a database.
enum AssetStore {
    static func data(for id: Int) async throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: "/tmp/asset-\(id).jpg"))
    }

    static func avatar(for id: Int) async throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: "/tmp/avatar-\(id).jpg"))
    }
}

#if canImport(UIKit)
import UIKit

/// `IrisImageView` in a SwiftUI hierarchy, as a UIKit app would use it.
struct UIKitImageView: UIViewRepresentable {
    let url: URL

    func makeUIView(context: Context) -> IrisImageView {
        let view = IrisImageView()
        view.placeholder = UIImage(systemName: "photo")
        view.failureImage = UIImage(systemName: "exclamationmark.triangle")
        view.transition = .fadeIn(duration: 0.2)
        view.contentMode = .scaleAspectFill
        view.priority = .high
        view.pipeline = .shared
        view.onCompletion = { result in print(result) }
        return view
    }

    func updateUIView(_ view: IrisImageView, context: Context) {
        view.url = url
        // Or a full request:
        view.request = ImageRequest(url: url, processors: [.circle])
    }
}

/// A short MP4 in an `IrisImageView`: its poster at once, then the clip, muted and looping, in
/// the view's content mode, while the view can be seen.
struct UIKitVideoView: UIViewRepresentable {
    let url: URL

    func makeUIView(context: Context) -> IrisImageView {
        let view = IrisImageView()
        view.contentMode = .scaleAspectFill
        view.failureImage = UIImage(systemName: "film")  // a WebM on Apple platforms: a typed error, not a blank view
        view.onCompletion = { result in
            if case .success(let image) = result { print("poster of a \(image.video?.format.description ?? "still")") }
        }
        return view
    }

    func updateUIView(_ view: IrisImageView, context: Context) {
        view.url = url
        view.animatesFrames = true  // false: the poster only
    }
}

/// A table whose cells are reused: setting `url` shows the new row's image (from memory) or the
/// placeholder before it returns, never the previous row's image.
final class PhotoCell: UITableViewCell {
    let photoView = IrisImageView()

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        photoView.placeholder = UIImage(systemName: "photo")
        photoView.contentMode = .scaleAspectFill
        photoView.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(photoView)
        NSLayoutConstraint.activate([
            photoView.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 8),
            photoView.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            photoView.widthAnchor.constraint(equalToConstant: 60),
            photoView.heightAnchor.constraint(equalToConstant: 60),
        ])
    }

    required init?(coder: NSCoder) { nil }

    override func prepareForReuse() {
        super.prepareForReuse()
        photoView.url = nil
    }
}

/// Prefetching warms exactly what the cells show: the request a 60-pt filled `IrisImageView` makes
/// on this screen (`sizedForView`), so a prefetched row is a memory hit with no second decode.
final class PhotoTableController: UITableViewController, UITableViewDataSourcePrefetching {
    let photos = (0..<500).map(Photo.init)
    let prefetcher = ImagePrefetcher()

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(PhotoCell.self, forCellReuseIdentifier: "photo")
        tableView.rowHeight = 76
        tableView.prefetchDataSource = self
    }

    /// The request a cell's image view makes for `indexPath`'s photo.
    private func cellRequest(_ indexPath: IndexPath) -> ImageRequest {
        ImageRequest(url: photos[indexPath.row].url)
            .sizedForView(in: ImageSlot(width: 60, height: 60), displayScale: traitCollection.displayScale, contentMode: .fill)
    }

    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        prefetcher.startPrefetching(with: indexPaths.map(cellRequest))
    }

    func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        prefetcher.stopPrefetching(with: indexPaths.map(cellRequest))
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { photos.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "photo", for: indexPath)
        (cell as? PhotoCell)?.photoView.url = photos[indexPath.row].url
        // VoiceOver reads the view as an image once one is shown; the label names it.
        (cell as? PhotoCell)?.photoView.accessibilityLabel = "Photo \(photos[indexPath.row].id)"
        return cell
    }
}

struct PhotoTable: UIViewControllerRepresentable {
    func makeUIViewController(context: Context) -> PhotoTableController { PhotoTableController() }
    func updateUIViewController(_ controller: PhotoTableController, context: Context) {}
}
#endif
#endif

// The SwiftUI, UIKit and AppKit code of the DocC articles (Sources/IrisUI/IrisUI.docc), each
// block verbatim between the "Snippet" markers, so that `scripts/typecheck-apple` builds it;
// `DocumentationSnippetsCheck` (Tests/IrisTests/Documentation) fails when an article's block is
// in neither this file nor the Linux snippet tests.
#if canImport(SwiftUI)
import Iris
import IrisUI
import SwiftUI

/// A profile whose avatar the "one rename" example shows.
struct Profile: Sendable {
    var avatarURL: URL?
}

/// GettingStarted.md, before: the avatar with `AsyncImage`.
struct AsyncImageAvatar: View {
    let profile: Profile

    var body: some View {
        // Snippet: GettingStarted.md
        AsyncImage(url: profile.avatarURL) { phase in
            if let image = phase.image {
                image.resizable().scaledToFill()
            } else if phase.error != nil {
                Color.red.opacity(0.3)
            } else {
                ProgressView()
            }
        }
        .frame(width: 64, height: 64)
        .clipShape(Circle())
        // End of snippet.
    }
}

/// GettingStarted.md, after: the same avatar, one name changed.
struct IrisImageAvatar: View {
    let profile: Profile

    var body: some View {
        // Snippet: GettingStarted.md
        IrisImage(url: profile.avatarURL) { phase in
            if let image = phase.image {
                image.resizable().scaledToFill()
            } else if phase.error != nil {
                Color.red.opacity(0.3)
            } else {
                ProgressView()
            }
        }
        .frame(width: 64, height: 64)
        .clipShape(Circle())
        // End of snippet.
    }
}

/// GettingStarted.md: fill, processors, priority.
struct FilledPhoto: View {
    let photo: Photo

    var body: some View {
        // Snippet: GettingStarted.md
        IrisImage(url: photo.url) { image in
            image.resizable().scaledToFill()
        } placeholder: {
            Color.gray.opacity(0.2)
        }
        .contentMode(.fill)
        .processors([.roundedCorners(radius: 12)])
        .priority(.high)
        .frame(width: 160, height: 120)
        .clipped()
        // End of snippet.
    }
}

// Snippet: GettingStarted.md
extension ImagePipeline {
    static let photos = ImagePipeline {
        $0.dataCache = try? DataCache(directory: URL.cachesDirectory.appending(path: "Photos"))
    }
}

struct PhotosRoot: View {
    var body: some View {
        PhotoGrid()
            .imagePipeline(.photos)
    }
}
// End of snippet.

// Snippet: GettingStarted.md
struct CoverEditor: View {
    @State private var cover = ImageModel()
    let coverURL: URL

    var body: some View {
        HStack {
            IrisImage(model: cover) { phase in phase.image?.resizable().scaledToFit() }
            IrisImage(model: cover) { phase in phase.image?.resizable().scaledToFill() }
                .frame(width: 48, height: 48)
                .clipped()
        }
        .task {
            cover.retryPolicy = RetryPolicy(maxRetries: 3)
            cover.load(ImageRequest(url: coverURL, targetSize: CGSize(width: 600, height: 600), scale: 2))
        }
    }
}
// End of snippet.

/// Animations.md: the first frame only.
struct StillSticker: View {
    let stickerURL: URL

    var body: some View {
        // Snippet: Animations.md
        IrisImage(url: stickerURL) { image in
            image.resizable().scaledToFit()
        } placeholder: {
            Color.clear
        }
        .animatesFrames(false)
        .frame(width: 96, height: 96)
        // End of snippet.
    }
}

/// A short video (MP4, MOV): the content shows its poster, and the clip plays over it, muted and
/// looping, from the bytes already loaded, while the view can be seen. `.animatesFrames(false)`
/// keeps the poster; a WebM on Apple platforms fails (`ImageError.decodingFailed`).
struct VideoClip: View {
    static let sampleURL = URL(string: "https://example.com/clips/loop.mp4")!
    let url: URL

    var body: some View {
        IrisImage(url: url) { phase in
            if let image = phase.image {
                image.resizable().scaledToFill()
            } else if let error = phase.error {
                Text(error.description).font(.caption)
            } else {
                ProgressView()
            }
        }
        .contentMode(.fill)
        .frame(width: 320, height: 180)
        .clipped()
    }
}

/// ComingFromNukeAndKingfisher.md: a `LazyImage` with processors and a completion handler.
struct BlurredPhoto: View {
    let photo: Photo

    var body: some View {
        // Snippet: ComingFromNukeAndKingfisher.md
        IrisImage(url: photo.url) { phase in
            if let image = phase.image {
                image.resizable().scaledToFit()
            } else {
                Color.gray.opacity(0.2)
            }
        }
        .processors([.gaussianBlur(radius: 4)])
        .priority(.high)
        .onCompletion { result in
            if case .failure(let error) = result { print("photo failed: \(error)") }
        }
        // End of snippet.
    }
}

#if canImport(UIKit)
import UIKit

// Snippet: GettingStarted.md
final class AvatarCell: UITableViewCell {
    let avatar = IrisImageView()

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        avatar.placeholder = UIImage(systemName: "person.crop.circle")
        avatar.contentMode = .scaleAspectFill  // decoded to cover 48×48 pt, as UIImageView shows it
        avatar.frame = CGRect(x: 16, y: 8, width: 48, height: 48)
        contentView.addSubview(avatar)
    }

    required init?(coder: NSCoder) { fatalError("not made from a storyboard") }

    func show(_ url: URL?) {
        avatar.url = url  // a memory hit is on screen when this returns, else the placeholder
    }
}
// End of snippet.
#endif
#endif
