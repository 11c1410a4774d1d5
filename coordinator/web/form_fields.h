// The fields of the web view's forms (the test form and the run form), each refilled from the values of a
// refused submission so that the user corrects what the error names instead of typing everything again:
// text inputs with their help, selects, and the select of the stored artifacts of one kind.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "coordinator.h"

namespace xq::coord::web {

class FormFields {
  public:
    using Values = std::map<std::string, std::string>;
    FormFields(const Values& values, const std::vector<Coordinator::ArtifactInfo>& artifacts)
        : values_(values), artifacts_(artifacts) {}
    // The refused submission's value of a field, else `fallback`.
    std::string value(const std::string& name, const std::string& fallback) const;
    // A labelled text input and its help.
    std::string field(const std::string& label, const std::string& name, const std::string& value,
                      const std::string& help) const;
    // A select of (value, text) options; the refused submission's value is chosen, else the first.
    std::string choice(const std::string& name,
                       const std::vector<std::pair<std::string, std::string>>& options) const;
    // The stored files of `kind` (and those of no kind that are no engine), after an empty choice named
    // `emptyChoice` and the `extra` (value, text) options.
    std::string artifactChoice(const std::string& name, const std::string& emptyChoice, const char* kind,
                               const std::vector<std::pair<std::string, std::string>>& extra = {}) const;

  private:
    const Values& values_;
    const std::vector<Coordinator::ArtifactInfo>& artifacts_;
};

}  // namespace xq::coord::web
