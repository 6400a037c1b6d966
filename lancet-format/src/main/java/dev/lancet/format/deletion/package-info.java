/**
 * Deletion vectors and the deletion files of the {@code _deletions/} directory: their two
 * content forms ({@link dev.lancet.format.deletion.DeletionFileFormat}), names ({@link
 * dev.lancet.format.deletion.DeletionFileNames}) and the in-memory set of deleted row offsets
 * ({@link dev.lancet.format.deletion.DeletionVector}).
 */
package dev.lancet.format.deletion;
