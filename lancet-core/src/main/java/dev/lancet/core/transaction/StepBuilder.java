package dev.lancet.core.transaction;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Collects the actions of one user step. The common actions have short forms; any action can
 * be added with {@link #action(Action)}.
 */
public final class StepBuilder {
  private final List<Action> actions = new ArrayList<>();

  StepBuilder() {}

  public StepBuilder action(Action action) {
    actions.add(action);
    return this;
  }

  /** A new top-level field named by {@code token} for later actions of this operation. */
  public StepBuilder addField(int token, Field definition) {
    return action(AddField.topLevel(token, definition));
  }

  public StepBuilder addChildField(int token, Ref parent, Field definition) {
    return action(new AddField(token, Optional.of(parent), definition));
  }

  /** A new fragment named by {@code token}; its files come with {@link #addDataFile}. */
  public StepBuilder addFragment(int token, long physicalRows) {
    return action(AddFragment.local(token, physicalRows));
  }

  public StepBuilder addDataFile(Ref fragment, DataFile file, Ref... fieldIds) {
    return action(new AddDataFile(fragment, file, List.of(fieldIds), true));
  }

  public StepBuilder tombstone(Ref fragment, Ref... fieldIds) {
    return action(new TombstoneFieldData(fragment, List.of(fieldIds), true));
  }

  public StepBuilder removeFragment(Ref fragment) {
    return action(new RemoveFragment(fragment, true));
  }

  public StepBuilder setDeletionFile(long fragment, DeletionFile deletionFile) {
    return action(new SetDeletionFile(fragment, Optional.of(deletionFile), true));
  }

  public StepBuilder renameField(Ref field, String newName) {
    return action(AlterField.rename(field, newName));
  }

  public StepBuilder dropField(Ref field) {
    return action(new DropField(field));
  }

  public StepBuilder setConfig(String key, String value) {
    return action(ConfigUpdate.ofConfig(UpdateMap.set(key, value)));
  }

  public StepBuilder removeConfig(String key) {
    return action(ConfigUpdate.ofConfig(UpdateMap.remove(key)));
  }

  public StepBuilder addBase(int token, BasePath base) {
    return action(new AddBase(token, base));
  }

  public StepBuilder reserveFragmentIds(long count) {
    return action(new ReserveFragmentIds(count));
  }

  public StepBuilder resetTable() {
    return action(new ResetTable());
  }

  List<Action> actions() {
    return List.copyOf(actions);
  }
}
