"""The formal side: properties, the position check, the text's facts about the data, the
symbolic model and the verification link."""
