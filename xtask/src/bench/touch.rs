//! Temporary edits to files of the measured repository. The benchmark must never leave a
//! repository modified: an edit restores the original bytes when dropped (also on panic),
//! and keeps a backup on disk first, so that the parent process can restore the file even
//! if the child measuring it was killed mid-edit.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One appended edit or one created file, undone on drop.
pub struct Touch {
    target: PathBuf,
    /// `None` for a file the edit created: undoing it removes the file.
    original: Option<Vec<u8>>,
    backup: Backup,
}

impl Touch {
    /// Backs `target` up into `backup_dir`, then appends `extra` to it.
    pub fn append(target: &Path, extra: &str, backup_dir: &Path) -> io::Result<Touch> {
        let original = fs::read(target)?;
        let backup = Backup::write(backup_dir, target, Some(&original))?;
        let mut edited = original.clone();
        edited.extend_from_slice(extra.as_bytes());
        let touch = Touch {
            target: target.to_owned(),
            original: Some(original),
            backup,
        };
        // Written after `touch` exists, so a failed write is still undone by its drop.
        fs::write(&touch.target, edited)?;
        Ok(touch)
    }

    /// Creates `target` (which must not exist) holding `text`; dropping removes it.
    pub fn create(target: &Path, text: &str, backup_dir: &Path) -> io::Result<Touch> {
        if fs::symlink_metadata(target).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} already exists", target.display()),
            ));
        }
        let backup = Backup::write(backup_dir, target, None)?;
        let touch = Touch {
            target: target.to_owned(),
            original: None,
            backup,
        };
        fs::write(&touch.target, text)?;
        Ok(touch)
    }
}

impl Drop for Touch {
    fn drop(&mut self) {
        let undone = match &self.original {
            Some(bytes) => fs::write(&self.target, bytes),
            None => fs::remove_file(&self.target).or_else(|e| match e.kind() {
                io::ErrorKind::NotFound => Ok(()),
                _ => Err(e),
            }),
        };
        match undone {
            Ok(()) => self.backup.remove(),
            // The backup stays for the parent to retry; say so rather than fail silently.
            Err(e) => eprintln!("bench: could not restore {}: {e}", self.target.display()),
        }
    }
}

/// A backup as two files: `<n>.orig` holds the bytes (or `<n>.created` marks a file the
/// edit created, to be removed), `<n>.path` the file they belong to.
struct Backup {
    bytes: PathBuf,
    path: PathBuf,
}

impl Backup {
    fn write(dir: &Path, target: &Path, original: Option<&[u8]>) -> io::Result<Backup> {
        fs::create_dir_all(dir)?;
        let n = fs::read_dir(dir)?.count();
        let extension = if original.is_some() {
            "orig"
        } else {
            "created"
        };
        let backup = Backup {
            bytes: dir.join(format!("{n}.{extension}")),
            path: dir.join(format!("{n}.path")),
        };
        fs::write(&backup.bytes, original.unwrap_or_default())?;
        // The path file is written last: its presence marks a complete backup.
        fs::write(&backup.path, target.as_os_str().as_encoded_bytes())?;
        Ok(backup)
    }

    fn remove(&self) {
        let _ = fs::remove_file(&self.path);
        let _ = fs::remove_file(&self.bytes);
    }
}

/// Restores every file a dead child left backed up in `dir`; returns the files restored.
pub fn restore_leftovers(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut restored = Vec::new();
    for entry in entries {
        let path_file = entry?.path();
        if path_file.extension().is_none_or(|e| e != "path") {
            continue;
        }
        let target = PathBuf::from(fs::read_to_string(&path_file)?);
        let created = path_file.with_extension("created");
        let bytes_file = if created.exists() {
            match fs::remove_file(&target) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            created
        } else {
            let bytes_file = path_file.with_extension("orig");
            fs::write(&target, fs::read(&bytes_file)?)?;
            bytes_file
        };
        fs::remove_file(&path_file)?;
        fs::remove_file(&bytes_file)?;
        restored.push(target);
    }
    Ok(restored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restores_on_drop_and_from_leftover_backups() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.ts");
        let backups = dir.path().join("backups");
        fs::write(&file, "export const a = 1;\n").unwrap();

        let touch = Touch::append(&file, "// edited\n", &backups).unwrap();
        assert!(fs::read_to_string(&file).unwrap().ends_with("// edited\n"));
        drop(touch);
        assert_eq!(fs::read_to_string(&file).unwrap(), "export const a = 1;\n");
        assert!(restore_leftovers(&backups).unwrap().is_empty());

        // A child killed mid-edit never runs the drop: the backup must still restore.
        std::mem::forget(Touch::append(&file, "// edited\n", &backups).unwrap());
        assert_eq!(restore_leftovers(&backups).unwrap(), vec![file.clone()]);
        assert_eq!(fs::read_to_string(&file).unwrap(), "export const a = 1;\n");
    }

    #[test]
    fn created_files_are_removed_on_drop_and_from_leftover_backups() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("new.ts");
        let backups = dir.path().join("backups");
        let touch = Touch::create(&file, "export const b = 1;\n", &backups).unwrap();
        assert!(file.exists());
        assert!(Touch::create(&file, "", &backups).is_err());
        drop(touch);
        assert!(!file.exists());

        std::mem::forget(Touch::create(&file, "export const b = 1;\n", &backups).unwrap());
        assert_eq!(restore_leftovers(&backups).unwrap(), vec![file.clone()]);
        assert!(!file.exists());
        assert_eq!(fs::read_dir(&backups).unwrap().count(), 0);
    }
}
