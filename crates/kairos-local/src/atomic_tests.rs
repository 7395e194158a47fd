use super::*;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_old_content_is_replaced_whole_and_nothing_is_left_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.json");
    std::fs::write(&file, "an old and much longer content than the new one\n").unwrap();
    write_atomically(&file, b"new\n", FileMode::Normal).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "new\n");
    assert_eq!(names(dir.path()), ["out.json"]);

    let fresh = dir.path().join("fresh.cron");
    write_atomically(&fresh, b"* * * * * true\n", FileMode::Normal).unwrap();
    assert_eq!(std::fs::read(&fresh).unwrap(), b"* * * * * true\n");
    assert_eq!(names(dir.path()), ["fresh.cron", "out.json"]);
}

#[cfg(unix)]
#[test]
fn a_private_file_is_owner_only_from_the_temporary_file_on() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bundle.json");
    std::fs::write(&file, "old").unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();

    // The temporary file, as it is before the rename: beside the target, hidden, 0600.
    let temporary = temporary_beside(&file, b"secret", FileMode::Private).unwrap();
    assert_eq!(temporary.parent(), Some(dir.path()));
    let name = temporary
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with(".bundle.json.") && name.ends_with(".tmp"),
        "{name}"
    );
    assert_eq!(mode(&temporary), 0o600);
    assert_eq!(
        platform::Permissions::for_target(&file, FileMode::Private)
            .unwrap()
            .initial()
            .map(|p| std::os::unix::fs::PermissionsExt::mode(&p)),
        Some(0o600),
        "created 0600, not narrowed afterwards"
    );
    drop(temporary);
    assert_eq!(names(dir.path()), ["bundle.json"], "dropped, removed");

    // A file that was readable by others is owner-only once it holds secrets.
    write_atomically(&file, b"secret", FileMode::Private).unwrap();
    assert_eq!(mode(&file), 0o600);
    assert_eq!(std::fs::read(&file).unwrap(), b"secret");
}

#[cfg(unix)]
#[test]
fn a_normal_file_keeps_the_permissions_of_the_one_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kairos.desktop");
    for bits in [0o640, 0o600, 0o755] {
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(bits)).unwrap();
        write_atomically(&file, b"new", FileMode::Normal).unwrap();
        assert_eq!(mode(&file), bits);
    }
}

#[test]
fn a_failure_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();

    // The target is a directory: the rename fails, the directory and its file stay.
    let target = dir.path().join("export.json");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), "kept").unwrap();
    for mode in [FileMode::Normal, FileMode::Private] {
        write_atomically(&target, b"new", mode).unwrap_err();
        assert_eq!(names(dir.path()), ["export.json"]);
        assert_eq!(
            std::fs::read_to_string(target.join("inside")).unwrap(),
            "kept"
        );
    }

    // The directory does not exist: nothing is made.
    let err =
        write_atomically(&dir.path().join("no/such/file"), b"x", FileMode::Normal).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{err}");
    assert_eq!(names(dir.path()), ["export.json"]);

    // A path naming no file.
    let err = write_atomically(&dir.path().join(".."), b"x", FileMode::Normal).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
}

#[test]
fn creating_keeps_a_file_that_exists_and_the_first_of_several_wins() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("api-token");
    std::fs::write(&file, "first\n").unwrap();
    let err = create_atomically(&file, b"second\n", FileMode::Private).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "first\n");
    assert_eq!(names(dir.path()), ["api-token"]);

    let raced = dir.path().join("raced");
    let winners: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let raced = &raced;
                s.spawn(move || {
                    let text = format!("writer {i}\n");
                    create_atomically(raced, text.as_bytes(), FileMode::Private)
                        .map(|()| text)
                        .ok()
                })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap())
            .collect()
    });
    assert_eq!(winners.len(), 1, "{winners:?}");
    assert_eq!(std::fs::read_to_string(&raced).unwrap(), winners[0]);
    assert_eq!(names(dir.path()), ["api-token", "raced"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed_to_the_file_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    let link = dir.path().join("link.json");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write_atomically(&link, b"new", FileMode::Normal).unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(names(dir.path()), ["link.json", "real.json"]);
}
