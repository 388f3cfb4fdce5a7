import Glibc

/// A file as `stat` last saw it (change time, size, inode): whether it changed since, for
/// the price of one `stat` and no read. Files Onboard writes are replaced by a rename,
/// so a write always brings a new inode.
struct FileStamp: Equatable {
    var modified: timespec
    var size: off_t
    var inode: ino_t

    /// The file now; nil when there is none.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        (modified, size, inode) = (info.st_mtim, info.st_size, info.st_ino)
    }

    static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec && lhs.size == rhs.size
            && lhs.inode == rhs.inode
    }
}
